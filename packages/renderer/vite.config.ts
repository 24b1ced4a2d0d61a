// The renderer alone, for browser mode (`glassbox ui`) and the Playwright tests: relative asset paths,
// minified, into dist/web. The Electron app builds the same sources through electron-vite.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: resolve(import.meta.dirname, 'src'),
  base: './',
  plugins: [react()],
  build: { outDir: resolve(import.meta.dirname, 'dist/web'), emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1024 },
  logLevel: 'warn',
});
