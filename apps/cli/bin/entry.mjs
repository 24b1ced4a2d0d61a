// Which entry the launcher starts: the prebuilt bundle (apps/cli/dist, plain JavaScript on Node alone)
// when it is there and no source it was built from has changed since, otherwise the TypeScript sources
// through tsx, as in development. A stale bundle is never run: edits show at once without a rebuild.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `{ kind: 'bundle', path }` or `{ kind: 'source', path, why }` for the CLI package at `cliDir`.
 * GLASSBOX_FROM_SOURCE=1 forces the sources.
 */
export function chooseEntry(cliDir, env = process.env) {
  const source = join(cliDir, 'src/main.ts');
  if (env.GLASSBOX_FROM_SOURCE === '1') return { kind: 'source', path: source, why: 'GLASSBOX_FROM_SOURCE=1' };
  const dist = join(cliDir, 'dist');
  const bundle = join(dist, 'main.mjs');
  const manifest = join(dist, 'inputs.json');
  if (!existsSync(bundle) || !existsSync(manifest)) return { kind: 'source', path: source, why: 'no bundle' };
  let built;
  try {
    built = JSON.parse(readFileSync(manifest, 'utf8'));
  } catch {
    return { kind: 'source', path: source, why: 'unreadable bundle manifest' };
  }
  for (const input of built.inputs ?? []) {
    let mtime;
    try {
      mtime = statSync(resolve(dist, input)).mtimeMs;
    } catch {
      return { kind: 'source', path: source, why: `${input} is gone` };
    }
    if (mtime > built.builtAt) return { kind: 'source', path: source, why: `${input} changed since the bundle was built` };
  }
  return { kind: 'bundle', path: bundle };
}
