import { statSync } from 'node:fs';
import type { AgentRegistry } from '@glassbox/core';
import { describeOpenedFile, discoverFiles, type AgentRoots } from './discover';
import { rowAsFile } from './file-rows';
import type { IndexDatabase } from './index-database';
import type { Found } from './refresh-context';
import { planRefresh, type RefreshPlan, type SeenFile } from './refresh-plan';
import { fingerprintOf, type Fingerprint } from '../shared/scan';
import type { FileKey, FileRow } from './statements';

/** Files stat'ed between two turns of the event loop while a refresh discovers. */
const YIELD_EVERY = 250;

/** Where discovery looks: every agent's roots, and all of them together (for a path asked for by name). */
export interface DiscoverRoots {
  agentRoots: AgentRoots;
  roots: readonly string[];
}

/**
 * Discover: every file under the roots (or the asked paths) with its fingerprint, and what to do with
 * each (refresh-plan.ts). An unchanged file is never opened. The thread is given back every few
 * hundred files, so an app starting on a machine with thousands of sessions answers its first list
 * while the refresh looks at them.
 */
export async function discoverStage(store: IndexDatabase, agents: AgentRegistry, where: DiscoverRoots, paths: string[] | undefined): Promise<RefreshPlan<Found>> {
  const st = store.st;
  // The watcher's small refreshes look up their own rows only: the table may hold thousands.
  const stored: FileKey[] = store.read(
    () => (paths ? paths.map((p) => st.fileByPath.get(p)).filter((r): r is FileRow => !!r) : st.fileKeys.all()),
    [],
  );
  const byPath = new Map(stored.map((r) => [r.path, r]));
  const seen: SeenFile<Found>[] = [];
  let looked = 0;
  const consider = async (found: Found) => {
    const fp = fingerprintIfFile(found.file.path);
    if (fp) seen.push({ path: found.file.path, file: found, fp });
    if (++looked % YIELD_EVERY === 0) await new Promise<void>((r) => setImmediate(r));
  };
  if (paths) {
    for (const path of paths) {
      const row = byPath.get(path);
      if (row) await consider({ file: rowAsFile(row), origin: row.origin });
      else {
        const underRoot = where.roots.find((r) => path.startsWith(r + '/'));
        await consider({ file: { ...describeOpenedFile(agents, path), root: underRoot ?? null }, origin: underRoot ? 'discovered' : 'opened' });
      }
    }
  } else {
    const discovered = discoverFiles(agents, where.agentRoots);
    for (const d of discovered) await consider({ file: d, origin: 'discovered' });
    const found = new Set(discovered.map((d) => d.path));
    // Files opened from elsewhere stay indexed while they exist.
    for (const row of stored) if (row.origin === 'opened' && !found.has(row.path)) await consider({ file: rowAsFile(row), origin: 'opened' });
  }
  return planRefresh(seen, stored);
}

/**
 * A regular file's fingerprint; null when there is no regular file at the path (gone, a folder, a
 * FIFO). A path that cannot even be stat'ed (a link loop, no permission) gets zeros: it is recorded
 * as unreadable with its reason.
 */
function fingerprintIfFile(path: string): Fingerprint | null {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st?.isFile() ? fingerprintOf(st) : null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { dev: 0, ino: 0, size: 0, mtimeMs: 0 };
  }
}
