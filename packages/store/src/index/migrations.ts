import { createHash } from 'node:crypto';

/**
 * Numbered schema migrations. Each one is applied once, in order, inside a transaction, and recorded
 * with a checksum of its SQL: a database whose recorded checksum differs from ours was written by
 * another build, so it is not trusted (the index is a cache; it is rebuilt).
 * Never edit a migration that has shipped: add the next number.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'files, search',
    sql: `
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  root TEXT,
  origin TEXT NOT NULL,
  kind TEXT NOT NULL,
  parent_path TEXT,
  agent_id TEXT,
  session_id TEXT NOT NULL,
  project TEXT NOT NULL,
  cwd TEXT,
  git_branch TEXT,
  version TEXT,
  title TEXT,
  first_prompt TEXT,
  first_ts TEXT,
  last_ts TEXT,
  dev INTEGER NOT NULL,
  ino INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  level INTEGER NOT NULL DEFAULT 0,
  parsed_offset INTEGER NOT NULL DEFAULT 0,
  parsed_lines INTEGER NOT NULL DEFAULT 0,
  state TEXT,
  search_seq INTEGER NOT NULL DEFAULT 0,
  turns INTEGER NOT NULL DEFAULT 0,
  records INTEGER NOT NULL DEFAULT 0,
  context_tokens INTEGER,
  last_model TEXT,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_creation_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  api_messages INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL,
  unpriced_messages INTEGER NOT NULL DEFAULT 0,
  problems INTEGER NOT NULL DEFAULT 0,
  problem_note TEXT,
  analyzed_offset INTEGER,
  estimated_tokens INTEGER,
  reclaimable_tokens INTEGER,
  reclaimable_json TEXT,
  analysis_error TEXT,
  indexed_at TEXT NOT NULL
);
CREATE INDEX files_session ON files(session_id);
CREATE INDEX files_parent ON files(parent_path);
CREATE INDEX files_last_ts ON files(last_ts);

-- One row per indexing pass of a file: rowid = file id * 2^21 + pass number, so a file's rows are a
-- rowid range (FTS5 deletes a range without scanning the table).
CREATE VIRTUAL TABLE search USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
`,
  },
  {
    version: 2,
    name: 'files.agent',
    sql: `
-- The agent whose transcript the file is (its adapter reads it): 'claude-code', 'codex'.
ALTER TABLE files ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude-code';
`,
  },
  {
    version: 3,
    name: 'folder mappings, analysis window',
    sql: `
-- Recorded working directory → the folder it is in on this machine now (a moved checkout). Kept across
-- restarts; the analysis of every session under a mapped folder checks the disk there.
CREATE TABLE repo_map (
  cwd TEXT PRIMARY KEY,
  folder TEXT NOT NULL,
  saved_at TEXT NOT NULL
);
-- The window the analysis's reclaimable figure is a share of, and the folder it was proven against.
ALTER TABLE files ADD COLUMN window_tokens INTEGER;
ALTER TABLE files ADD COLUMN analysis_repo TEXT;
`,
  },
  {
    version: 4,
    name: 'summary checkpoints in a table of their own',
    sql: `
-- A file's summary checkpoint (a few KB of JSON each) beside its row, not in it: a list of thousands
-- then reads a files table a third of the size, and never pages through checkpoints to reach the
-- columns after them. files.state is no longer written.
CREATE TABLE file_state (
  file_id INTEGER PRIMARY KEY,
  state TEXT NOT NULL
);
INSERT INTO file_state (file_id, state) SELECT id, state FROM files WHERE state IS NOT NULL;
UPDATE files SET state = NULL WHERE state IS NOT NULL;
CREATE TRIGGER files_state_gone AFTER DELETE ON files BEGIN
  DELETE FROM file_state WHERE file_id = old.id;
END;
`,
  },
  {
    version: 5,
    name: 'figures of the newest clients: every file read again',
    sql: `
-- The readers changed what a row's figures mean (attachments sized by the text the client recorded it
-- sent, never-sent records left out, models and prices from a dated catalogue, a forked thread's copied
-- history not counted as its usage): summaries and analyses made before are not kept. Each file is read
-- again from the start at the next refresh, and analysed again.
UPDATE files SET level = 1 WHERE level = 2;
UPDATE files SET analyzed_offset = -1;
DELETE FROM file_state;
`,
  },
  {
    version: 6,
    name: 'usage by hour and model',
    sql: `
-- Each file's provider-reported usage by UTC hour and model, so that cost reports by day, month,
-- project and model (ccusage's) are sums over the index, with a day in any time zone of whole hours.
-- Filled by the summary stage; every file is read again once so that no row lacks them.
CREATE TABLE usage_hours (
  file_id INTEGER NOT NULL,
  hour TEXT NOT NULL,
  model TEXT NOT NULL,
  messages INTEGER NOT NULL,
  input INTEGER NOT NULL,
  output INTEGER NOT NULL,
  cache_creation INTEGER NOT NULL,
  cache_read INTEGER NOT NULL,
  cost REAL NOT NULL,
  unpriced INTEGER NOT NULL,
  PRIMARY KEY (file_id, hour, model)
) WITHOUT ROWID;
CREATE TRIGGER files_usage_gone AFTER DELETE ON files BEGIN
  DELETE FROM usage_hours WHERE file_id = old.id;
END;
UPDATE files SET level = 1 WHERE level = 2;
DELETE FROM file_state;
`,
  },
];

export function migrationChecksum(m: Migration): string {
  return createHash('sha256').update(`${m.version}\n${m.name}\n${m.sql}`, 'utf8').digest('hex');
}

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
