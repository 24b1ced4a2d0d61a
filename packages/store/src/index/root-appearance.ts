import { existsSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface Appearance {
  close(): void;
}

/**
 * Calls `onAppear` once `root` exists, for a root none of whose near parents exist yet (no ~/.codex
 * at all: the agent is installed after Glassbox started). Chokidar sees a missing path appear only
 * when its parent exists; this watches the nearest folder that does exist, one name at a time, and
 * moves down as each folder on the way is made (`mkdir -p` makes them all at once: each step looks
 * again at once). A folder that cannot be watched (a watch limit) leaves the root to the next start.
 */
export function whenRootAppears(root: string, onAppear: () => void): Appearance {
  let watcher: FSWatcher | null = null;
  let closed = false;

  const arm = (): void => {
    watcher?.close();
    watcher = null;
    if (closed) return;
    if (existsSync(root)) {
      closed = true;
      onAppear();
      return;
    }
    const at = nearestExisting(root);
    if (at === null) return;
    const next = nextName(at, root);
    try {
      watcher = watch(at, { persistent: false }, (_event, name) => {
        // Some platforms give no name: look again in any case, but only for what is on the way.
        if (name === null || name === next) arm();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      return;
    }
    // Made between the look and the watch: seen now rather than never.
    if (existsSync(`${at}/${next}`)) arm();
  };

  arm();
  return {
    close() {
      closed = true;
      watcher?.close();
      watcher = null;
    },
  };
}

/** The nearest parent of `path` that exists, or null when none does (not even the drive's root). */
function nearestExisting(path: string): string | null {
  for (let at = dirname(path); ; at = dirname(at)) {
    if (existsSync(at)) return at;
    if (dirname(at) === at) return null;
  }
}

/** The name inside `parent` on the way down to `path`. */
function nextName(parent: string, path: string): string {
  let at = path;
  while (dirname(at) !== parent) at = dirname(at);
  return basename(at);
}
