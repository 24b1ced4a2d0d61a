// electron-vite: main (ESM, with the engine utility process and its two kinds of worker threads as
// entries of their own), preload (CommonJS: sandboxed preloads cannot be ES modules), renderer (React). Workspace packages are bundled from
// their TypeScript; native and ESM-only deps stay external (docs/toolchain.md).
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const workspace = ['@glassbox/core', '@glassbox/contract', '@glassbox/adapter-claude-code', '@glassbox/adapter-codex', '@glassbox/agents', '@glassbox/file-io', '@glassbox/analysis', '@glassbox/store', '@glassbox/host'];
/** The renderer's sources live in their own package (browser mode serves the same build). */
const renderer = resolve(import.meta.dirname, '../../packages/renderer/src');

export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: workspace },
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          engine: resolve(import.meta.dirname, 'src/main/engine-process.ts'),
          // The index's summary/analysis threads and the host's work threads (parse, analysis, forks):
          // built files the engine starts, since a bundle has no TypeScript entry to point a Worker at.
          'index-worker': resolve(import.meta.dirname, '../../packages/store/src/index/worker/entry.ts'),
          'work-worker': resolve(import.meta.dirname, '../../packages/host/src/work/worker-entry.ts'),
        },
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
    root: renderer,
    plugins: [react()],
    build: { minify: true, rollupOptions: { input: resolve(renderer, 'index.html') } },
  },
});
