import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type * as Esbuild from 'esbuild';

const cached = new Map<string, string | null>();

const OPTIONS: Esbuild.BuildOptions & { write: false } = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  write: false,
  logLevel: 'silent',
  external: ['better-sqlite3', 'chokidar'],
};

/**
 * The index's worker code as one CommonJS script, bundled once per process with esbuild (already
 * installed as tsx's compiler), for `new Worker(source, { eval: true })`. null when esbuild cannot be
 * loaded: the pool then starts workers from worker/entry.mjs through tsx instead (slower to start).
 */
export function bundledWorkerSource(): string | null {
  return bundleWorker(fileURLToPath(new URL('./worker/entry.ts', import.meta.url)));
}

/** Any worker entry (a TypeScript file), bundled the same way: once per process and entry; null without esbuild. */
export function bundleWorker(entry: string): string | null {
  const hit = cached.get(entry);
  if (hit !== undefined) return hit;
  let source: string | null;
  try {
    const require = createRequire(import.meta.url);
    const esbuild = require('esbuild') as typeof Esbuild;
    const out = esbuild.buildSync({ ...OPTIONS, entryPoints: [entry] });
    source = out.outputFiles?.[0]?.text ?? null;
  } catch {
    source = null;
  }
  cached.set(entry, source);
  return source;
}

const pending = new Map<string, Promise<string | null>>();

/**
 * The same bundle made without blocking the calling thread (esbuild works in its own process): a host
 * starts it when it is made, so its first request does not wait a quarter of a second for it.
 */
export function bundleWorkerAsync(entry: string): Promise<string | null> {
  const hit = cached.get(entry);
  if (hit !== undefined) return Promise.resolve(hit);
  let p = pending.get(entry);
  if (!p) {
    p = (async () => {
      let source: string | null;
      try {
        const require = createRequire(import.meta.url);
        const esbuild = require('esbuild') as typeof Esbuild;
        const out = await esbuild.build({ ...OPTIONS, entryPoints: [entry] });
        source = out.outputFiles?.[0]?.text ?? null;
      } catch {
        source = null;
      }
      cached.set(entry, source);
      return source;
    })();
    pending.set(entry, p);
  }
  return p;
}
