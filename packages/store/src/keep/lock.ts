import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KeepError, errorCode } from './errors';
import { processAlive } from '../shared/process-alive';
import { makeArchiveDir } from '../shared/private-folder';

/**
 * Keeps and prunes exclude each other, so a prune never deletes a chunk a keep running at the same
 * time just found already stored and is about to name. Each side first announces itself with a file
 * `<kind>-<pid>-<random>` in `kept/.locks/`, then looks for the other kind: whoever sees the other
 * withdraws. Keeps share (many may run: chunks are content-addressed, versions have unique names);
 * a prune is alone. A file whose process no longer runs is removed by whoever finds it.
 */
export type LockKind = 'keep' | 'prune';

const WAIT_STEP_MS = 50;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function holders(dir: string, own: string): { kind: LockKind; name: string }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: { kind: LockKind; name: string }[] = [];
  for (const name of names) {
    const m = /^(keep|prune)-(\d+)-[0-9a-f]{8}$/.exec(name);
    if (!m || name === own) continue;
    if (!processAlive(Number(m[2]))) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // Another process removed it first.
      }
      continue;
    }
    out.push({ kind: m[1] as LockKind, name });
  }
  return out;
}

/**
 * Takes the lock of this kind on the kept archive, waiting up to `waitMs` for the other kind to finish;
 * returns the release function. Refuses with 'busy' when the wait runs out.
 */
export function lockKept(keptDir: string, kind: LockKind, waitMs = 30_000): () => void {
  const dir = join(keptDir, '.locks');
  try {
    // Every keep and prune takes the lock: the archive is made private here even when nothing new is written.
    makeArchiveDir(dirname(keptDir), dir);
  } catch (error) {
    throw new KeepError('unwritable', `cannot create ${dir} (${errorCode(error)}); nothing was changed`);
  }
  const name = `${kind}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const path = join(dir, name);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
    } catch (error) {
      throw new KeepError('unwritable', `cannot write ${path} (${errorCode(error)}); nothing was changed`);
    }
    const others = holders(dir, name);
    const blocking = others.filter((o) => kind === 'prune' || o.kind === 'prune');
    if (blocking.length === 0) {
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // Already removed.
        }
      };
    }
    unlinkSync(path);
    if (Date.now() >= deadline) {
      const what = kind === 'prune' ? 'sessions are being kept' : 'the archive is being pruned';
      throw new KeepError('busy', `${what} by another Glassbox process (${blocking.map((b) => b.name).join(', ')}); nothing was changed, try again when it is done`);
    }
    Atomics.wait(sleeper, 0, 0, WAIT_STEP_MS);
  }
}
