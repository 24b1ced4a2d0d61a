import type { Db } from './db';

/** A row of the `files` table, as stored. */
export interface FileRow {
  id: number;
  path: string;
  root: string | null;
  origin: 'discovered' | 'opened';
  kind: 'session' | 'subagent';
  parent_path: string | null;
  agent_id: string | null;
  session_id: string;
  project: string;
  cwd: string | null;
  git_branch: string | null;
  version: string | null;
  title: string | null;
  first_prompt: string | null;
  first_ts: string | null;
  last_ts: string | null;
  dev: number;
  ino: number;
  size: number;
  mtime_ms: number;
  /** -1 unreadable, 0 fingerprint only, 1 head and tail read (list figures), 2 fully summarised. */
  level: number;
  parsed_offset: number;
  parsed_lines: number;
  state: string | null;
  search_seq: number;
  turns: number;
  records: number;
  context_tokens: number | null;
  last_model: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  api_messages: number;
  cost_usd: number | null;
  unpriced_messages: number;
  problems: number;
  problem_note: string | null;
  analyzed_offset: number | null;
  estimated_tokens: number | null;
  reclaimable_tokens: number | null;
  reclaimable_json: string | null;
  analysis_error: string | null;
  indexed_at: string;
}

export type NewFileRow = Omit<FileRow, 'id'>;

export interface MessageRow {
  file_id: number;
  key: string;
  model: string | null;
  ts: string | null;
  sidechain: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  cache_creation_1h_tokens: number;
  cost_usd: number | null;
}

export interface Totals {
  api_messages: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  cost_usd: number | null;
  unpriced_messages: number;
}

/** FTS rows of one file are the rowid range [id << 21, (id + 1) << 21). */
export const SEARCH_ROWS_PER_FILE = 2 ** 21;

const FILE_COLUMNS: (keyof NewFileRow)[] = [
  'path', 'root', 'origin', 'kind', 'parent_path', 'agent_id', 'session_id', 'project', 'cwd', 'git_branch', 'version',
  'title', 'first_prompt', 'first_ts', 'last_ts', 'dev', 'ino', 'size', 'mtime_ms', 'level', 'parsed_offset',
  'parsed_lines', 'state', 'search_seq', 'turns', 'records', 'context_tokens', 'last_model', 'input_tokens',
  'output_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'api_messages', 'cost_usd', 'unpriced_messages',
  'problems', 'problem_note', 'analyzed_offset', 'estimated_tokens', 'reclaimable_tokens', 'reclaimable_json',
  'analysis_error', 'indexed_at',
];

/** Every statement the index runs, prepared once and typed here. */
export function prepareStatements(db: Db) {
  const insertFile = db.prepare<NewFileRow, never>(
    `INSERT INTO files (${FILE_COLUMNS.join(', ')}) VALUES (${FILE_COLUMNS.map((c) => '@' + c).join(', ')})`,
  );
  const updateFile = db.prepare<FileRow, never>(
    `UPDATE files SET ${FILE_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
  );
  return {
    allFiles: db.prepare<[], FileRow>('SELECT * FROM files'),
    staleAnalyses: db.prepare<[], FileRow>(
      "SELECT * FROM files WHERE kind = 'session' AND level >= 2 AND (analyzed_offset IS NULL OR analyzed_offset != parsed_offset)",
    ),
    fileByPath: db.prepare<[string], FileRow>('SELECT * FROM files WHERE path = ?'),
    fileById: db.prepare<[number], FileRow>('SELECT * FROM files WHERE id = ?'),
    filesBySession: db.prepare<[string], FileRow>('SELECT * FROM files WHERE session_id = ? ORDER BY kind, path'),
    filesBySessionPrefix: db.prepare<[string], FileRow>("SELECT * FROM files WHERE session_id LIKE ? || '%' ORDER BY kind, path"),
    subagentsOf: db.prepare<[string], FileRow>('SELECT * FROM files WHERE parent_path = ? ORDER BY path'),
    insertFile: {
      run: (row: NewFileRow): number => Number(insertFile.run(row).lastInsertRowid),
    },
    updateFile,
    deleteFile: db.prepare<[number], never>('DELETE FROM files WHERE id = ?'),
    deleteMessages: db.prepare<[number], never>('DELETE FROM messages WHERE file_id = ?'),
    upsertMessage: db.prepare<MessageRow, never>(
      `INSERT INTO messages (file_id, key, model, ts, sidechain, input_tokens, output_tokens, cache_creation_tokens,
         cache_read_tokens, cache_creation_1h_tokens, cost_usd)
       VALUES (@file_id, @key, @model, @ts, @sidechain, @input_tokens, @output_tokens, @cache_creation_tokens,
         @cache_read_tokens, @cache_creation_1h_tokens, @cost_usd)
       ON CONFLICT (file_id, key) DO UPDATE SET model = excluded.model, ts = excluded.ts, sidechain = excluded.sidechain,
         input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
         cache_creation_tokens = excluded.cache_creation_tokens, cache_read_tokens = excluded.cache_read_tokens,
         cache_creation_1h_tokens = excluded.cache_creation_1h_tokens, cost_usd = excluded.cost_usd`,
    ),
    totals: db.prepare<[number], Totals>(
      `SELECT count(*) AS api_messages, coalesce(sum(input_tokens), 0) AS input_tokens,
         coalesce(sum(output_tokens), 0) AS output_tokens, coalesce(sum(cache_creation_tokens), 0) AS cache_creation_tokens,
         coalesce(sum(cache_read_tokens), 0) AS cache_read_tokens, sum(cost_usd) AS cost_usd,
         sum(cost_usd IS NULL) AS unpriced_messages
       FROM messages WHERE file_id = ?`,
    ),
    messagesOf: db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE file_id = ?'),
    insertSearch: db.prepare<[number, string], never>('INSERT INTO search (rowid, text) VALUES (?, ?)'),
    deleteSearch: db.prepare<[number, number], never>('DELETE FROM search WHERE rowid >= ? AND rowid < ?'),
    searchFileIds: db.prepare<[string], { file_id: number }>(
      `SELECT DISTINCT rowid / ${SEARCH_ROWS_PER_FILE} AS file_id FROM search WHERE search MATCH ?`,
    ),
    clearAll: {
      run: (): void => {
        db.exec('DELETE FROM messages; DELETE FROM files; DELETE FROM search;');
      },
    },
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
