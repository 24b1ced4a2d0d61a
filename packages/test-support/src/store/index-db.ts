// Test helpers for the index database, for tests outside the store (only the store touches SQLite).
import Database from 'better-sqlite3';

/** Takes the database's write lock as another process would, until the returned release is called. */
export function holdWriteLock(dbPath: string): () => void {
  const holder = new Database(dbPath);
  holder.exec('BEGIN IMMEDIATE');
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holder.exec('ROLLBACK');
    holder.close();
  };
}

/** Every row of an index as data (files and search text), without the columns that name a run (ids, times). */
export function indexRows(dbPath: string): unknown[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    const files = db.prepare('SELECT * FROM files ORDER BY path').all() as Record<string, unknown>[];
    const search = db.prepare('SELECT f.path AS path, s.text AS text FROM search s JOIN files f ON s.rowid / 2097152 = f.id ORDER BY f.path, s.rowid').all();
    return [files.map(({ id: _id, indexed_at: _at, ...rest }) => rest), search];
  } finally {
    db.close();
  }
}
