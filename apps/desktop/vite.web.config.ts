// The renderer alone, for browser mode (`glassbox ui`) and the Playwright tests: relative asset paths,
// minified, into out/web (kept apart from electron-vite's out/renderer).
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [react()],
  build: { outDir: resolve(import.meta.dirname, 'out/web'), emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1024 },
  logLevel: 'warn',
});
