import type { Db } from './db';
import { Stage } from './stage';
import { BRIEF_COLUMN_NAMES, BRIEF_COLUMNS, LIST_COLUMNS, type BriefFileRow, type FileRow, type Statements } from './statements';
import { toBriefRow, toSessionRow, type BriefRow, type SessionRow } from './rows';

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
  /** Rows in no particular order: the caller sorts them itself (`sort` and `reverse` are then ignored). */
  unsorted?: boolean;
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
  const filter = whereOf(db, st, q);
  if (!filter) return [];
  const rows = db.prepare<(string | number)[], FileRow>(`SELECT ${LIST_COLUMNS} FROM files${filter.sql}`).all(...filter.params);
  const subs = subagentTotals(db);
  const out = rows.map((f) => {
    const a = f.kind === 'session' ? subs.get(f.path) : undefined;
    return toSessionRow(f, a ? { count: a.count, cost: a.incomplete > 0 ? null : (a.cost ?? 0), unpriced: a.unpriced } : undefined);
  });
  return sortAndLimit(out, q);
}

/** What a list of thousands shows of each session (see BriefRow): the same query, a quarter of the columns. */
export function runBriefListQuery(db: Db, st: Statements, q: ListQuery): BriefRow[] {
  const filter = whereOf(db, st, q);
  if (!filter) return [];
  // Rows as arrays, not objects keyed by column: at thousands of rows that halves the read.
  const rows = db.prepare<(string | number)[], unknown[]>(`SELECT ${BRIEF_COLUMNS} FROM files${filter.sql}`).raw().all(...filter.params);
  const subs = subagentTotals(db);
  const at = Object.fromEntries(BRIEF_COLUMN_NAMES.map((c, i) => [c, i])) as Record<(typeof BRIEF_COLUMN_NAMES)[number], number>;
  const out = rows.map((v) => {
    const f = {
      id: v[at.id], agent: v[at.agent], path: v[at.path], kind: v[at.kind], session_id: v[at.session_id], project: v[at.project], cwd: v[at.cwd],
      title: v[at.title], first_prompt: v[at.first_prompt], last_ts: v[at.last_ts], mtime_ms: v[at.mtime_ms], size: v[at.size], level: v[at.level],
      parsed_offset: v[at.parsed_offset], analyzed_offset: v[at.analyzed_offset], context_tokens: v[at.context_tokens],
      estimated_tokens: v[at.estimated_tokens], reclaimable_tokens: v[at.reclaimable_tokens], window_tokens: v[at.window_tokens], problem_note: v[at.problem_note],
      turns: v[at.turns], api_messages: v[at.api_messages], last_model: v[at.last_model], cost_usd: v[at.cost_usd], unpriced_messages: v[at.unpriced_messages],
    } as BriefFileRow;
    const a = f.kind === 'session' ? subs.get(f.path) : undefined;
    return toBriefRow(f, a ? { count: a.count, cost: a.incomplete > 0 ? null : (a.cost ?? 0), unpriced: a.unpriced } : undefined);
  });
  return sortAndLimit(out, q);
}

function whereOf(db: Db, st: Statements, q: ListQuery): { sql: string; params: (string | number)[] } | null {
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
    if (ids.length === 0) return null;
    where.push(`id IN (${ids.join(',')})`);
  }
  return { sql: where.length ? ' WHERE ' + where.join(' AND ') : '', params };
}

function subagentTotals(db: Db): Map<string, SubAgg> {
  return new Map(
    db
      .prepare<[], SubAgg>(
        `SELECT parent_path, count(*) AS count, sum(cost_usd) AS cost, sum(unpriced_messages) AS unpriced,
           sum(level < ${Stage.summarised}) AS incomplete
         FROM files WHERE kind = 'subagent' AND parent_path IS NOT NULL GROUP BY parent_path`,
      )
      .all()
      .map((a) => [a.parent_path, a]),
  );
}

function sortAndLimit<R extends Sortable>(out: R[], q: ListQuery): R[] {
  if (q.unsorted !== true) sortRows(out, q.sort ?? 'activity', q.reverse === true);
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

/** What a sort reads of a row (SessionRow and BriefRow both have it). */
type Sortable = Pick<SessionRow, 'path' | 'lastActivity' | 'size' | 'contextTokens' | 'reclaimableTokens' | 'windowTokens' | 'project' | 'title' | 'firstPrompt'> & {
  totalCostUsd?: number | null;
  costUsd?: number | null;
};

function sortRows(rows: Sortable[], key: SortKey, reverse: boolean): void {
  const val = (r: Sortable): number | string => {
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
