import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where Glassbox keeps its read-only copies of kept sessions whose originals are gone, and how a path is
 * known to be one of them: what the fork writer refuses and the index lists, without either reaching
 * into the keeping code (keep/view.ts writes the copies).
 */
/** The file that marks a folder as a kept view (Glassbox's own read-only copies). */
export const KEPT_VIEW_MARKER = '.glassbox-kept-view';
const MARKER = KEPT_VIEW_MARKER;

export function viewDirOf(archiveDir: string): string {
  return join(dirname(archiveDir), 'kept-view');
}

/** The projects root of an agent's view copies. */
export function viewRootOf(viewDir: string, agent: string): string {
  return join(viewDir, agent, 'projects');
}

/** Whether a file lies in a kept view (an archive copy, which nothing may fork or write beside). */
export function isInKeptView(path: string): boolean {
  let dir = dirname(path);
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, MARKER))) return true;
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
  return false;
}

