import type { UsageQuery, UsageReport } from '@glassbox/engine';
import type { IndexProgress, RetentionFolder, SessionRow, SessionSort } from '@glassbox/contract';

/**
 * Where the session browser's rows come from. The seam for the store's SQLite index: the host asks
 * for rows, a refresh with progress, and change notices. index-catalog.ts is the implementation;
 * unavailable-catalog.ts stands in, empty and saying why, when the index cannot open.
 */
export interface SessionCatalog {
  roots(): string[];
  /** Every known session (main-thread files, not subagent files); a catalog may sort and search itself. */
  list(sort?: SessionSort, search?: string): SessionRow[];
  /** The agents whose folders are searched, by their clients' names. */
  agentNames?(): string[];
  /** Re-reads the roots; only changed files are summarised again. */
  refresh(onProgress: (p: IndexProgress) => void, signal?: AbortSignal): Promise<void>;
  /** Whether the list holds this exact path (the host lets the person open what the list shows). */
  has?(path: string): boolean;
  /** The row for one file, summarised now if it changed; null when it is gone. */
  update(path: string): SessionRow | null;
  /** Full-text search beyond titles (prompts, replies, tool results, paths, commands): the matching paths, each with a snippet of its best hit, when supported. */
  search?(query: string): Map<string, string[]>;
  /** Indexes a new file now (a fork just written), when the catalog needs telling. */
  add?(path: string): Promise<SessionRow | null>;
  /** Folder mappings the catalog keeps across restarts (the index saves them); none for a plain scan. */
  savedMappings?(): Record<string, string>;
  /**
   * Saves (or, with null, removes) a folder mapping and marks the sessions under that cwd for a new
   * analysis; the next refresh applies it to their figures.
   */
  saveMapping(cwd: string, folder: string | null): void;
  /** Sessions "keep every session automatically" should keep now, most urgent first (none without an archive). */
  autoKeepCandidates?(): string[];
  /** The client clean-up rules of the configuration folders the listed sessions live in. */
  retentionFolders?(): RetentionFolder[];
  /** Cost over every indexed session, grouped as asked (engine's usageReport); absent without an index. */
  usage?(q: UsageQuery): UsageReport;
  /** Starts watching the roots; returns a stop function. */
  watch(onChange: (change: CatalogChange) => void): () => void;
  close(): void;
}

export interface CatalogChange {
  path: string;
  reason: 'added' | 'appended' | 'changed' | 'removed';
  /** The new row when the catalog has it at hand; undefined to look it up. */
  row?: SessionRow | null;
}

export function matchesQuery(row: SessionRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [row.title, row.project, row.cwd, row.id, row.projectDir].some((v) => v?.toLowerCase().includes(q));
}

/** Why a row matched a query, in words for the list: the first field that holds it. */
export function whyMatched(row: SessionRow, query: string, deep: Pick<ReadonlySet<string>, 'has'>): string | undefined {
  const q = query.trim().toLowerCase();
  if (!q) return undefined;
  if (row.title?.toLowerCase().includes(q)) return 'title';
  if (row.project.toLowerCase().includes(q)) return 'project';
  if (row.cwd?.toLowerCase().includes(q)) return `folder ${row.cwd}`;
  if (row.id.toLowerCase().includes(q)) return 'session id';
  if (row.projectDir.toLowerCase().includes(q)) return 'project folder';
  return deep.has(row.path) ? 'text in the session' : undefined;
}

export function sortRows(rows: SessionRow[], sort: SessionSort): SessionRow[] {
  const key = (r: SessionRow): number => {
    switch (sort) {
      case 'activity':
        return r.lastActivity ? Date.parse(r.lastActivity) : 0;
      case 'size':
        return r.bytes;
      case 'context':
        return r.contextTokens ?? r.estimatedTokens;
      case 'reclaimable':
        return r.reclaimableShare;
      case 'cost':
        // A session without a price (unknown model, no usage) goes after every priced one.
        return r.costUsd ?? -1;
    }
  };
  // Each row's key once (a date parsed per comparison costs more than the sort itself at thousands of rows).
  const keyed = rows.map((r) => ({ r, k: key(r) }));
  keyed.sort((a, b) => b.k - a.k || a.r.path.localeCompare(b.r.path));
  return keyed.map((x) => x.r);
}
