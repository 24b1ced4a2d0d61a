import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION, migrationChecksum } from './migrations';

export type Db = Database.Database;

/** Why a database file was not trusted and moved aside. */
export type DiscardReason = 'corrupt' | 'newer-schema' | 'foreign';

export interface OpenedDb {
  db: Db;
  /** Human messages about what happened on open (a database moved aside and rebuilt). */
  notices: string[];
}

class Untrusted extends Error {
  constructor(
    readonly reason: DiscardReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Opens (creating if needed) the index database in WAL mode and brings its schema up to date. The
 * index is a cache: a file that is not a database, is damaged, was written by a newer schema, or
 * whose recorded migrations differ from ours is moved aside (never deleted) and a new one is built.
 */
export function openDatabase(path: string, options: { nativeBinding?: string; probe?: (db: Db) => void } = {}): OpenedDb {
  const notices: string[] = [];
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  try {
    return { db: openTrusted(path, options), notices };
  } catch (error) {
    const reason: DiscardReason = error instanceof Untrusted ? error.reason : 'corrupt';
    if (path === ':memory:') throw error;
    const aside = moveAside(path, reason);
    notices.push(`${discardMessage(reason, (error as Error).message)}: moved ${path} to ${aside} and rebuilt the index`);
    return { db: openTrusted(path, options), notices };
  }
}

/** Whether an error thrown by SQLite means the database file itself is damaged. */
export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  // A damaged FTS5 table reports a plain SQLITE_ERROR from its constructor.
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || /vtable constructor failed|malformed/.test((error as Error).message);
}

/** Renames the database and its WAL files to `<path>.<reason>-<time>`; returns the new name. */
export function moveAside(path: string, reason: DiscardReason): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const aside = `${path}.${reason}-${stamp}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  }
  return aside;
}

function discardMessage(reason: DiscardReason, detail: string): string {
  switch (reason) {
    case 'newer-schema':
      return `The index was written by a newer Glassbox (${detail})`;
    case 'foreign':
      return `The index file is not a Glassbox index (${detail})`;
    default:
      return `The index was damaged (${detail})`;
  }
}

function openTrusted(path: string, options: { nativeBinding?: string; probe?: (db: Db) => void }): Db {
  const db = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    // The first statement reads the header: a file that is not a database fails here.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    // Preparing every statement touches every table (FTS5 reads its own config pages here).
    options.probe?.(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

function migrate(db: Db): void {
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all()
    .map((r) => r.name);
  if (!tables.includes('schema_migrations') && tables.length > 0) {
    throw new Untrusted('foreign', `it holds tables ${tables.slice(0, 3).join(', ')} but no migration record`);
  }
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = db.prepare<[], AppliedRow>('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all();
  const newest = applied[applied.length - 1]?.version ?? 0;
  if (newest > SCHEMA_VERSION) {
    throw new Untrusted('newer-schema', `schema ${newest}; this build knows up to ${SCHEMA_VERSION}`);
  }
  for (const row of applied) {
    const ours = MIGRATIONS.find((m) => m.version === row.version);
    if (!ours || migrationChecksum(ours) !== row.checksum) {
      throw new Untrusted('foreign', `migration ${row.version} "${row.name}" differs from this build's`);
    }
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  for (const m of MIGRATIONS) {
    if (m.version <= newest) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, migrationChecksum(m), new Date().toISOString());
    })();
  }
}
