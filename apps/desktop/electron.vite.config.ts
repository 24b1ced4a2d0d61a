// electron-vite: main (ESM, with the engine utility process as a second entry), preload (CommonJS:
// sandboxed preloads cannot be ES modules), renderer (React). Workspace packages are bundled from
// their TypeScript; native and ESM-only deps stay external (TOOLCHAIN §4, §8).
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const workspace = ['@glassbox/core', '@glassbox/adapter-claude-code', '@glassbox/analysis', '@glassbox/store'];

export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: workspace },
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/main/index.ts'), engine: resolve(import.meta.dirname, 'src/main/engine-process.ts') },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: { exclude: workspace },
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [react()],
    build: { minify: true, rollupOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') } },
  },
});
