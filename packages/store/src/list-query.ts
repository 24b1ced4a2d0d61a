import type { Db } from './db';
import { Stage } from './stage';
import type { FileRow, Statements } from './statements';
import { toSessionRow, type SessionRow } from './rows';

export type SortKey = 'activity' | 'size' | 'tokens' | 'reclaimable' | 'cost' | 'project' | 'title';
export const SORT_KEYS: readonly SortKey[] = ['activity', 'size', 'tokens', 'reclaimable', 'cost', 'project', 'title'];

export interface ListQuery {
  /** Substring of the project folder name or of the working directory (case-insensitive). */
  project?: string;
  /** Only sessions active at or after this time. */
  since?: Date;
  /** Full-text search over prompts, file paths and commands (subagents' too); every word must match. */
  search?: string;
  sort?: SortKey;
  /** Ascending instead of the key's natural order (newest, biggest first). */
  reverse?: boolean;
  limit?: number;
  /** Also list subagent files as rows of their own. */
  includeSubagents?: boolean;
}

interface SubAgg {
  parent_path: string;
  count: number;
  cost: number | null;
  unpriced: number;
  incomplete: number;
}

/** Runs a list query: filters in SQL, subagent figures merged into their sessions, sorted in memory. */
export function runListQuery(db: Db, st: Statements, q: ListQuery): SessionRow[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (!q.includeSubagents) where.push("kind = 'session'");
  if (q.project) {
    where.push("(project LIKE '%' || ? || '%' OR cwd LIKE '%' || ? || '%')");
    params.push(q.project, q.project);
  }
  if (q.since) {
    where.push('coalesce(last_ts, strftime(\'%Y-%m-%dT%H:%M:%fZ\', mtime_ms / 1000.0, \'unixepoch\')) >= ?');
    params.push(q.since.toISOString());
  }
  if (q.search) {
    const ids = searchSessionFileIds(db, st, q.search, q.includeSubagents === true);
    if (ids.length === 0) return [];
    where.push(`id IN (${ids.join(',')})`);
  }
  const rows = db
    .prepare<(string | number)[], FileRow>(`SELECT * FROM files${where.length ? ' WHERE ' + where.join(' AND ') : ''}`)
    .all(...params);
  const subs = new Map(
    db
      .prepare<[], SubAgg>(
        `SELECT parent_path, count(*) AS count, sum(cost_usd) AS cost, sum(unpriced_messages) AS unpriced,
           sum(level < ${Stage.summarised}) AS incomplete
         FROM files WHERE kind = 'subagent' AND parent_path IS NOT NULL GROUP BY parent_path`,
      )
      .all()
      .map((a) => [a.parent_path, a]),
  );
  const out = rows.map((f) => {
    const a = f.kind === 'session' ? subs.get(f.path) : undefined;
    return toSessionRow(f, a ? { count: a.count, cost: a.incomplete > 0 ? null : (a.cost ?? 0), unpriced: a.unpriced } : undefined);
  });
  sortRows(out, q.sort ?? 'activity', q.reverse === true);
  return q.limit !== undefined && q.limit >= 0 ? out.slice(0, q.limit) : out;
}

/** FTS5 query from user text: each word quoted (so punctuation in paths is literal), all must match. */
export function ftsQuery(text: string): string {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `"${w.replace(/"/g, '""')}"`)
    .join(' ');
}

function searchSessionFileIds(db: Db, st: Statements, text: string, keepSubagents: boolean): number[] {
  const match = ftsQuery(text);
  if (!match) return [];
  const ids = new Set(st.searchFileIds.all(match).map((r) => r.file_id));
  if (keepSubagents || ids.size === 0) return [...ids];
  // A match inside a subagent's transcript finds its session.
  const parents = db
    .prepare<[], { id: number }>(
      `SELECT p.id AS id FROM files s JOIN files p ON p.path = s.parent_path
       WHERE s.kind = 'subagent' AND s.id IN (${[...ids].join(',')})`,
    )
    .all();
  for (const p of parents) ids.add(p.id);
  return [...ids];
}

function sortRows(rows: SessionRow[], key: SortKey, reverse: boolean): void {
  const val = (r: SessionRow): number | string => {
    switch (key) {
      case 'activity':
        return r.lastActivity;
      case 'size':
        return r.size;
      case 'tokens':
        return r.contextTokens ?? -1;
      case 'reclaimable':
        return r.reclaimableTokens !== null && r.windowTokens ? r.reclaimableTokens / r.windowTokens : -1;
      case 'cost':
        return r.totalCostUsd ?? r.costUsd ?? -1;
      case 'project':
        return r.project.toLowerCase();
      case 'title':
        return (r.title ?? r.firstPrompt ?? '').toLowerCase();
    }
  };
  // Text keys read A→Z; figures and times biggest/newest first.
  const ascending = key === 'project' || key === 'title';
  const dir = (ascending ? 1 : -1) * (reverse ? -1 : 1);
  rows.sort((a, b) => {
    const x = val(a);
    const y = val(b);
    return x < y ? -dir : x > y ? dir : a.path < b.path ? -1 : 1;
  });
}
