import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type * as Esbuild from 'esbuild';

let cached: string | null | undefined;

/**
 * The worker code as one CommonJS script, bundled once per process with esbuild (already installed
 * as tsx's compiler), for `new Worker(source, { eval: true })`. null when esbuild cannot be loaded:
 * the pool then starts workers from worker.mjs through tsx instead (slower to start).
 */
export function bundledWorkerSource(): string | null {
  if (cached !== undefined) return cached;
  try {
    const require = createRequire(import.meta.url);
    const esbuild = require('esbuild') as typeof Esbuild;
    const out = esbuild.buildSync({
      entryPoints: [fileURLToPath(new URL('./worker-entry.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      external: ['better-sqlite3', 'chokidar'],
    });
    cached = out.outputFiles[0]?.text ?? null;
  } catch {
    cached = null;
  }
  return cached;
}
