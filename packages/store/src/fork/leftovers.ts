import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { finalNameOf, leftoverPid } from '../shared/atomic';
import { sessionIdOfName } from './naming';
import { processAlive } from '../shared/process-alive';

/** What a sweep found of an interrupted fork: a manifest to drop when its fork never got its name. */
export interface LeftoverHooks {
  /** Called with the fork id of an interrupted fork write (`.<name>.jsonl.glassbox-<pid>-….tmp` left, `<name>.jsonl` absent; the id is the name's uuid). */
  interruptedFork?: (forkId: string, forkPath: string) => void;
}

/**
 * Removes, in one folder, what Glassbox processes that died left behind: temporary files and
 * folders (`.<name>.glassbox-<pid>-<random>.tmp`) whose pid no longer runs. A temporary name of a
 * live process is left alone, and so is every other name. Returns the paths removed.
 */
export function sweepLeftovers(dir: string, hooks: LeftoverHooks = {}): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = leftoverPid(name);
    if (pid === null || processAlive(pid)) continue;
    const path = join(dir, name);
    const final = finalNameOf(name);
    if (/\.jsonl$/i.test(final) && !existsSync(join(dir, final))) hooks.interruptedFork?.(sessionIdOfName(final), join(dir, final));
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Not ours to insist on: a later run tries again.
    }
  }
  return removed;
}
