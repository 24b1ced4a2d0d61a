import type { Db } from './db';
import { Stage, type StageLevel } from './stage';

/** A row of the `files` table, as stored. */
export interface FileRow {
  id: number;
  /** The agent whose transcript it is (the adapter that reads it). */
  agent: string;
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
  /** How far the row is filled in: see stage.ts. */
  level: StageLevel;
  parsed_offset: number;
  parsed_lines: number;
  /** The summary checkpoint: stored in `file_state` (read with stateOf); null in rows read from `files`. */
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
  /** The window the reclaimable figure is a share of (the analysis's reported total, else its estimate). */
  window_tokens: number | null;
  /** The folder the analysis checked the disk in, when the cwd was mapped. */
  analysis_repo: string | null;
}

export type NewFileRow = Omit<FileRow, 'id'>;

const FILE_KEY_COLUMNS = [
  'id', 'agent', 'path', 'root', 'origin', 'kind', 'parent_path', 'agent_id', 'session_id', 'project', 'dev', 'ino', 'size',
  'mtime_ms', 'level',
] as const;

/** The columns a refresh needs to decide what to do with a file. */
export type FileKey = Pick<FileRow, (typeof FILE_KEY_COLUMNS)[number]>;

/** FTS rows of one file are the rowid range [id << 21, (id + 1) << 21). */
export const SEARCH_ROWS_PER_FILE = 2 ** 21;

const FILE_COLUMNS: (keyof NewFileRow)[] = [
  'agent', 'path', 'root', 'origin', 'kind', 'parent_path', 'agent_id', 'session_id', 'project', 'cwd', 'git_branch', 'version',
  'title', 'first_prompt', 'first_ts', 'last_ts', 'dev', 'ino', 'size', 'mtime_ms', 'level', 'parsed_offset',
  'parsed_lines', 'state', 'search_seq', 'turns', 'records', 'context_tokens', 'last_model', 'input_tokens',
  'output_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'api_messages', 'cost_usd', 'unpriced_messages',
  'problems', 'problem_note', 'analyzed_offset', 'estimated_tokens', 'reclaimable_tokens', 'reclaimable_json',
  'analysis_error', 'indexed_at', 'window_tokens', 'analysis_repo',
];

/** The columns of `files` a row is written to: all but the checkpoint, which `file_state` holds. */
const STORED_COLUMNS = FILE_COLUMNS.filter((c) => c !== 'state');

/** Every column of a file row: what a list shows (the checkpoint is never read for a list). */
export const LIST_COLUMNS = ['id', ...STORED_COLUMNS, 'NULL AS state'].join(', ');

/** What a brief row (rows.ts, BriefRow) is made of. */
export const BRIEF_COLUMN_NAMES = [
  'id', 'agent', 'path', 'kind', 'session_id', 'project', 'cwd', 'title', 'first_prompt', 'last_ts', 'mtime_ms', 'size', 'level',
  'parsed_offset', 'analyzed_offset', 'context_tokens', 'estimated_tokens', 'reclaimable_tokens', 'window_tokens', 'problem_note',
  'turns', 'api_messages', 'last_model', 'cost_usd', 'unpriced_messages',
] as const;
export const BRIEF_COLUMNS = BRIEF_COLUMN_NAMES.join(', ');
export type BriefFileRow = Pick<FileRow, (typeof BRIEF_COLUMN_NAMES)[number]>;

/** The analysis columns, written on their own (a summary of the same row may be landing meanwhile). */
export interface AnalysisColumns {
  id: number;
  /** The summary offset the analysis read up to: the update applies only while the row still has it. */
  analyzed_offset: number;
  estimated_tokens: number | null;
  reclaimable_tokens: number | null;
  reclaimable_json: string | null;
  window_tokens: number | null;
  analysis_repo: string | null;
  analysis_error: string | null;
}

/**
 * Every statement the index runs, prepared once and typed here. Writes are safe with other writers
 * on the same database (another CLI run, the app, a watcher): a row is inserted or updated by its
 * path in one statement (an upsert), never "look, then insert".
 */
export function prepareStatements(db: Db) {
  const upsertFile = db.prepare<Omit<NewFileRow, 'state'>, { id: number }>(
    `INSERT INTO files (${STORED_COLUMNS.join(', ')}) VALUES (${STORED_COLUMNS.map((c) => '@' + c).join(', ')}) ` +
      `ON CONFLICT(path) DO UPDATE SET ${STORED_COLUMNS.filter((c) => c !== 'path').map((c) => `${c} = excluded.${c}`).join(', ')} RETURNING id`,
  );
  const updateFile = db.prepare<Omit<FileRow, 'state'>, never>(`UPDATE files SET ${STORED_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
  const putState = db.prepare<[number, string], never>('INSERT INTO file_state (file_id, state) VALUES (?, ?) ON CONFLICT(file_id) DO UPDATE SET state = excluded.state');
  const dropState = db.prepare<[number], never>('DELETE FROM file_state WHERE file_id = ?');
  /** A row's checkpoint beside it (none when the row has none). */
  const saveState = (id: number, state: string | null): void => {
    if (state === null) dropState.run(id);
    else putState.run(id, state);
  };
  return {
    allFiles: db.prepare<[], FileRow>('SELECT * FROM files'),
    /** What a refresh compares against: identity and fingerprint only (a warm refresh reads nothing else). */
    fileKeys: db.prepare<[], FileKey>(`SELECT ${FILE_KEY_COLUMNS.join(', ')} FROM files`),
    stateOf: db.prepare<[number], { state: string | null }>('SELECT state FROM file_state WHERE file_id = ?'),
    /** A subagent file changed: its session's analysis (which links the subagent windows) is stale. */
    invalidateAnalysis: db.prepare<[string], never>('UPDATE files SET analyzed_offset = NULL WHERE path = ?'),
    staleAnalyses: db.prepare<[], FileRow>(
      `SELECT * FROM files WHERE kind = 'session' AND level >= ${Stage.summarised} AND (analyzed_offset IS NULL OR analyzed_offset != parsed_offset)`,
    ),
    fileByPath: db.prepare<[string], FileRow>('SELECT * FROM files WHERE path = ?'),
    fileById: db.prepare<[number], FileRow>('SELECT * FROM files WHERE id = ?'),
    filesBySession: db.prepare<[string], FileRow>('SELECT * FROM files WHERE session_id = ? ORDER BY kind, path'),
    filesBySessionPrefix: db.prepare<[string], FileRow>("SELECT * FROM files WHERE session_id LIKE ? || '%' ORDER BY kind, path"),
    subagentsOf: db.prepare<[string], FileRow>('SELECT * FROM files WHERE parent_path = ? ORDER BY path'),
    /** Inserts the row, or replaces every column of the row with the same path (its checkpoint too); gives its id. */
    upsertFile: {
      run: (row: NewFileRow): number => {
        const { state, ...stored } = row;
        const id = (upsertFile.get(stored) as { id: number }).id;
        saveState(id, state);
        return id;
      },
    },
    /** Replaces every column of a row, its checkpoint too. */
    updateFile: {
      run: (row: FileRow): void => {
        const { state, ...stored } = row;
        updateFile.run(stored);
        saveState(row.id, state);
      },
    },
    updateAnalysis: db.prepare<AnalysisColumns, never>(
      'UPDATE files SET analyzed_offset = @analyzed_offset, estimated_tokens = @estimated_tokens, reclaimable_tokens = @reclaimable_tokens, ' +
        'reclaimable_json = @reclaimable_json, window_tokens = @window_tokens, analysis_repo = @analysis_repo, analysis_error = @analysis_error ' +
        'WHERE id = @id AND parsed_offset = @analyzed_offset',
    ),
    deleteFile: db.prepare<[number], never>('DELETE FROM files WHERE id = ?'),
    insertSearch: db.prepare<[number, string], never>('INSERT INTO search (rowid, text) VALUES (?, ?)'),
    deleteSearch: db.prepare<[number, number], never>('DELETE FROM search WHERE rowid >= ? AND rowid < ?'),
    searchFileIds: db.prepare<[string], { file_id: number }>(
      `SELECT DISTINCT rowid / ${SEARCH_ROWS_PER_FILE} AS file_id FROM search WHERE search MATCH ?`,
    ),
    /** Adds a pass's usage to a file's hourly buckets (usage-hours.ts). */
    addUsageHour: db.prepare<{ file_id: number; hour: string; model: string; messages: number; input: number; output: number; cache_creation: number; cache_read: number; cost: number; unpriced: number }, never>(
      'INSERT INTO usage_hours (file_id, hour, model, messages, input, output, cache_creation, cache_read, cost, unpriced) ' +
        'VALUES (@file_id, @hour, @model, @messages, @input, @output, @cache_creation, @cache_read, @cost, @unpriced) ' +
        'ON CONFLICT(file_id, hour, model) DO UPDATE SET messages = messages + excluded.messages, input = input + excluded.input, ' +
        'output = output + excluded.output, cache_creation = cache_creation + excluded.cache_creation, cache_read = cache_read + excluded.cache_read, ' +
        'cost = cost + excluded.cost, unpriced = unpriced + excluded.unpriced',
    ),
    deleteUsageHours: db.prepare<[number], never>('DELETE FROM usage_hours WHERE file_id = ?'),
    /** Every file's hourly usage, with the file it belongs to (cost reports). */
    usageHours: db.prepare<[], UsageHourRow>(
      'SELECT u.hour, u.model, u.messages, u.input, u.output, u.cache_creation, u.cache_read, u.cost, u.unpriced, f.path, f.kind, f.parent_path ' +
        'FROM usage_hours u JOIN files f ON f.id = u.file_id',
    ),
    /** Saved folder mappings (see repo-map.ts). */
    mappings: db.prepare<[], { cwd: string; folder: string }>('SELECT cwd, folder FROM repo_map ORDER BY cwd'),
    saveMapping: db.prepare<[string, string, string], never>(
      'INSERT INTO repo_map (cwd, folder, saved_at) VALUES (?, ?, ?) ON CONFLICT(cwd) DO UPDATE SET folder = excluded.folder, saved_at = excluded.saved_at',
    ),
    deleteMapping: db.prepare<[string], never>('DELETE FROM repo_map WHERE cwd = ?'),
    /** Sessions in a folder (or below it): their analysis is stale once the folder's mapping changes. */
    invalidateAnalysesUnder: db.prepare<{ cwd: string }, never>(
      "UPDATE files SET analyzed_offset = NULL WHERE kind = 'session' AND (cwd = @cwd OR substr(cwd, 1, length(@cwd) + 1) = @cwd || '/')",
    ),
    clearAll: {
      run: (): void => {
        db.exec('DELETE FROM files; DELETE FROM search; DELETE FROM usage_hours;');
      },
    },
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

export interface UsageHourRow {
  hour: string;
  model: string;
  messages: number;
  input: number;
  output: number;
  cache_creation: number;
  cache_read: number;
  cost: number;
  unpriced: number;
  path: string;
  kind: 'session' | 'subagent';
  parent_path: string | null;
}
