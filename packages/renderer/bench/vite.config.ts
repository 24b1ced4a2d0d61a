// Builds the treemap benchmark page (bench/index.html) into out/bench.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: { outDir: resolve(import.meta.dirname, '../dist/bench'), emptyOutDir: true, chunkSizeWarningLimit: 2048 },
  logLevel: 'warn',
});
