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

/**
 * True when a change shows the session grew. The index calls an append "appended" only when it
 * resumed from its checkpoint; a file that grew before its first summary was done is read from the
 * start and reported as summarised, yet the person saw it grow all the same. The first pass's own
 * reports (every row refined at the size it was listed with) do not flash.
 */
export function grewInView(before: SessionRow | undefined, change: Pick<SessionChanged, 'reason' | 'row'>): boolean {
  if (change.reason === 'appended') return true;
  return before !== undefined && change.row !== null && change.row.bytes > before.bytes;
}

/** The paths whose row is bigger in `after` than in `before`: sessions that grew between two lists. */
export function grownPaths(before: readonly SessionRow[], after: readonly SessionRow[]): string[] {
  const was = new Map(before.map((r) => [r.path, r.bytes]));
  return after.filter((r) => r.bytes > (was.get(r.path) ?? Infinity)).map((r) => r.path);
}
