import { sameFingerprint, type Fingerprint } from '../shared/scan';
import { Stage } from './stage';
import type { FileKey } from './statements';

/**
 * What a refresh does with one file, decided from its fingerprint and its stored row alone:
 * - new: no row yet (or the last attempt could not read it): listed, then summarised from the start;
 * - unchanged: summarised before and the fingerprint is the same: not opened at all;
 * - appended: the same file (device and inode), not smaller: summarised from the saved offset
 *   (the summary falls back to a full read if the bytes before that offset changed);
 * - rewritten: another file under the same name, a shrunk one, or one never fully summarised:
 *   summarised from the start.
 */
export type FileAction = 'new' | 'unchanged' | 'appended' | 'rewritten';

export interface SeenFile<F> {
  path: string;
  /** What the caller needs again to work on the file (discovery details). */
  file: F;
  /** From stat; all zeros when the file exists but could not be stat'ed (it is then recorded as unreadable). */
  fp: Fingerprint;
}

export interface PlannedFile<F> extends SeenFile<F> {
  action: FileAction;
  /** The stored row's key columns, when there is a row. */
  stored: FileKey | undefined;
}

export interface RefreshPlan<F> {
  /** Every file seen once (a file reached by two paths is kept under the first), with its action. */
  files: PlannedFile<F>[];
  /** Stored rows whose file was not seen: their rows are removed. */
  gone: FileKey[];
}

/**
 * The refresh plan: pure (no disk, no database). `seen` is every file found (in discovery order);
 * `stored` the rows in scope (all of them for a full refresh, the asked paths' for a partial one).
 */
export function planRefresh<F>(seen: readonly SeenFile<F>[], stored: Iterable<FileKey>): RefreshPlan<F> {
  const rows = new Map<string, FileKey>();
  for (const r of stored) rows.set(r.path, r);
  const inodes = new Set<string>();
  const kept = new Set<string>();
  const files: PlannedFile<F>[] = [];
  for (const s of seen) {
    // The same file reached twice (a root that links to another): index it once.
    const inode = `${s.fp.dev}:${s.fp.ino}`;
    if (s.fp.ino !== 0 && inodes.has(inode)) continue;
    if (kept.has(s.path)) continue;
    inodes.add(inode);
    kept.add(s.path);
    const row = rows.get(s.path);
    files.push({ ...s, stored: row, action: actionFor(s.fp, row) });
  }
  const gone = [...rows.values()].filter((r) => !kept.has(r.path));
  return { files, gone };
}

function actionFor(fp: Fingerprint, row: FileKey | undefined): FileAction {
  if (!row || row.level === Stage.unreadable) return 'new';
  if (row.level < Stage.summarised) return 'rewritten';
  if (sameFingerprint(fp, rowFingerprint(row))) return 'unchanged';
  if (row.dev !== fp.dev || row.ino !== fp.ino || fp.size < row.size) return 'rewritten';
  return 'appended';
}

export function rowFingerprint(r: Pick<FileKey, 'dev' | 'ino' | 'size' | 'mtime_ms'>): Fingerprint {
  return { dev: r.dev, ino: r.ino, size: r.size, mtimeMs: r.mtime_ms };
}
