import type { Db } from './db';
import { Stage } from './stage';
import { BRIEF_COLUMN_NAMES, BRIEF_COLUMNS, LIST_COLUMNS, type BriefFileRow, type FileRow, type Statements } from './statements';
import { toBriefRow, toSessionRow, type BriefRow, type SessionRow } from './rows';
import { searchSnippets, type SnippetParts } from './search-query';

export type SortKey = 'activity' | 'size' | 'tokens' | 'reclaimable' | 'cost' | 'project' | 'title';
export const SORT_KEYS: readonly SortKey[] = ['activity', 'size', 'tokens', 'reclaimable', 'cost', 'project', 'title'];

export interface ListQuery {
  /** Substring of the project folder name or of the working directory (case-insensitive). */
  project?: string;
  /** Only sessions active at or after this time. */
  since?: Date;
  /** Full-text search over prompts, replies, tool results, file paths and commands (subagents' too); every word must match. Rows then carry a snippet. */
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
    return withSnippet(toSessionRow(f, a ? { count: a.count, cost: a.incomplete > 0 ? null : (a.cost ?? 0), unpriced: a.unpriced } : undefined), filter.snippets, f.id);
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
    return withSnippet(toBriefRow(f, a ? { count: a.count, cost: a.incomplete > 0 ? null : (a.cost ?? 0), unpriced: a.unpriced } : undefined), filter.snippets, f.id);
  });
  return sortAndLimit(out, q);
}

function withSnippet<R extends { snippet?: SnippetParts }>(row: R, snippets: Map<number, SnippetParts> | null, id: number): R {
  const snippet = snippets?.get(id);
  if (snippet) row.snippet = snippet;
  return row;
}

function whereOf(db: Db, st: Statements, q: ListQuery): { sql: string; params: (string | number)[]; snippets: Map<number, SnippetParts> | null } | null {
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
  let snippets: Map<number, SnippetParts> | null = null;
  if (q.search) {
    snippets = searchSessionFiles(db, q.search, q.includeSubagents === true);
    if (snippets.size === 0) return null;
    where.push(`id IN (${[...snippets.keys()].join(',')})`);
  }
  return { sql: where.length ? ' WHERE ' + where.join(' AND ') : '', params, snippets };
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

/** The files the words match, each with a snippet of its best hit; a subagent's hit finds its session too (with the subagent's snippet when the session has none). */
function searchSessionFiles(db: Db, text: string, keepSubagents: boolean): Map<number, SnippetParts> {
  const match = ftsQuery(text);
  if (!match) return new Map();
  const hits = searchSnippets(db, match);
  if (keepSubagents || hits.size === 0) return hits;
  const parents = db
    .prepare<[], { id: number; sub: number }>(
      `SELECT p.id AS id, s.id AS sub FROM files s JOIN files p ON p.path = s.parent_path
       WHERE s.kind = 'subagent' AND s.id IN (${[...hits.keys()].join(',')})`,
    )
    .all();
  for (const p of parents) if (!hits.has(p.id)) hits.set(p.id, hits.get(p.sub) ?? []);
  return hits;
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
