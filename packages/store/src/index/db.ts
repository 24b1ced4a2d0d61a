import { existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, IndexUnavailable, badDbPath, dbFault, unavailableFor } from './db-errors';
import { MIGRATIONS, SCHEMA_VERSION, migrationChecksum } from './migrations';
import { ensurePrivateFolder, preparePrivateFile, tightenFile } from '../shared/private-folder';

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

interface OpenOptions {
  nativeBinding?: string;
  /** How long to wait for another process's lock (default BUSY_TIMEOUT_MS). */
  busyTimeoutMs?: number;
  probe?: (db: Db) => void;
}

/**
 * Opens (creating if needed) the index database in WAL mode and brings its schema up to date. The
 * index is a cache: a file that is not a database, is damaged, was written by a newer schema, or
 * whose recorded migrations differ from ours is moved aside (never deleted) and a new one is built.
 * Nothing else is damage: a database another process holds is waited for (BUSY_TIMEOUT_MS), and
 * a lock that outlasts the wait, a full disk, a read-only folder or a path that cannot be a database
 * throws IndexUnavailable and leaves every file as it was.
 */
export function openDatabase(path: string, options: OpenOptions = {}): OpenedDb {
  const notices: string[] = [];
  if (path !== ':memory:') {
    const bad = badDbPath(path);
    if (bad) throw new IndexUnavailable('bad_path', bad);
    try {
      // The index holds prompts, commands and titles: its folder 0700, the files 0600 (private-folder.ts).
      ensurePrivateFolder(dirname(path));
    } catch (error) {
      throw unavailableFor(error, path, options.busyTimeoutMs) ?? error;
    }
  }
  try {
    return { db: openTrusted(path, options), notices };
  } catch (error) {
    if (path === ':memory:') throw error;
    const reason: DiscardReason | null = error instanceof Untrusted ? error.reason : dbFault(error) === 'corrupt' ? 'corrupt' : null;
    if (!reason) throw unavailableFor(error, path, options.busyTimeoutMs) ?? error;
    const aside = moveAside(path, reason);
    notices.push(`${discardMessage(reason, (error as Error).message)}: moved ${path} to ${aside} and rebuilt the index`);
    try {
      return { db: openTrusted(path, options), notices };
    } catch (again) {
      throw unavailableFor(again, path, options.busyTimeoutMs) ?? again;
    }
  }
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

function openTrusted(path: string, options: OpenOptions): Db {
  // Made 0600 before SQLite opens it, so its WAL and shared-memory files (which take the database's
  // mode) are private too; those of an earlier run are set to 0600 as well.
  if (path !== ':memory:') {
    preparePrivateFile(path);
    tightenFile(`${path}-wal`);
    tightenFile(`${path}-shm`);
  }
  // The busy timeout is set before the first statement: creating the WAL and migrating need locks
  // that another process opening the same new database may hold for a moment.
  const db = new Database(path, { timeout: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  try {
    // The first statement reads the header: a file that is not a database fails here.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
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

/** One immediate transaction: two processes creating the same new database never both migrate it. */
function migrate(db: Db): void {
  db.transaction(() => {
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
      db.exec(m.sql);
      record.run(m.version, m.name, migrationChecksum(m), new Date().toISOString());
    }
  }).immediate();
}
