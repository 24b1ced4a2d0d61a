import type { SessionChanged, SessionRow } from '@glassbox/contract';

/**
 * The list after one change, before the host re-sorts it: a changed row stays where it is (the index
 * refines every row as its stages finish; moving each to the end would shuffle the list, and the
 * project groups ordered by it, under a pointer or keyboard cursor), a new one goes last, a removed one goes.
 */
export function nextRows(rows: readonly SessionRow[], change: Pick<SessionChanged, 'path' | 'row'>): SessionRow[] {
  const at = rows.findIndex((r) => r.path === change.path);
  if (!change.row) return at < 0 ? [...rows] : rows.filter((r) => r.path !== change.path);
  if (at < 0) return [...rows, change.row];
  const next = [...rows];
  next[at] = change.row;
  return next;
}
