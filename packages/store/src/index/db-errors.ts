import { lstatSync, readlinkSync, statSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** What went wrong with the database, as far as what to do about it goes. */
export type DbFault = 'corrupt' | 'locked' | 'full' | 'read_only' | 'cannot_open' | 'io';

/**
 * The SQLite (or file system) error behind a failed database call, by kind. Only 'corrupt' means
 * the file itself is damaged; everything else is about the machine around it and leaves it alone.
 */
export function dbFault(error: unknown): DbFault | null {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return null;
  const message = (error as Error).message ?? '';
  // A damaged FTS5 table reports a plain SQLITE_ERROR from its constructor.
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || /vtable constructor failed|malformed/.test(message)) return 'corrupt';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'locked';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || (code === 'SQLITE_IOERR_WRITE' && /disk|space/i.test(message))) return 'full';
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'read_only';
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'ENOTDIR' || code === 'EEXIST' || code === 'ELOOP' || code === 'EISDIR') return 'cannot_open';
  if (code.startsWith('SQLITE_IOERR')) return 'io';
  return null;
}

export type UnavailableKind = 'locked' | 'disk_full' | 'read_only' | 'bad_path' | 'io';

/**
 * The index cannot be used right now, for a reason outside it (another writer holds it past the
 * wait, a full disk, a folder that is a file): nothing was moved aside or rebuilt; the message
 * says what to do. `bad_path` is the caller's input (the data folder or --db); the rest are refusals.
 */
export class IndexUnavailable extends Error {
  constructor(
    readonly kind: UnavailableKind,
    message: string,
  ) {
    super(message);
    this.name = 'IndexUnavailable';
  }
}

/** How long a write waits for another process's write to finish before giving up (GLASSBOX_LOCK_WAIT_MS overrides). */
export const BUSY_TIMEOUT_MS = 10_000;

export function lockWaitMs(env: NodeJS.ProcessEnv): number {
  const n = Number(env['GLASSBOX_LOCK_WAIT_MS']);
  return Number.isInteger(n) && n >= 0 ? n : BUSY_TIMEOUT_MS;
}

/** The IndexUnavailable for a database error that is not damage, or null (damage, or not ours to explain). */
export function unavailableFor(error: unknown, dbPath: string, waitedMs = BUSY_TIMEOUT_MS): IndexUnavailable | null {
  let fault = dbFault(error);
  // SQLite reports a write that found no room as an I/O error (which one depends on the file it was
  // writing: the WAL, its index, the database): the file system says whether it is full.
  if (fault === 'io' && diskFull(dirname(resolve(dbPath)))) fault = 'full';
  const detail = (error as Error).message;
  switch (fault) {
    case 'locked':
      return new IndexUnavailable(
        'locked',
        `the index ${dbPath} stayed locked by another process for ${waitedMs / 1000} s; nothing was changed. Try again when it has finished.`,
      );
    case 'full':
      return new IndexUnavailable('disk_full', `the disk holding ${dbPath} is full (${detail}); free some space and run it again. The index was left as it was.`);
    case 'read_only':
      return new IndexUnavailable('read_only', `cannot write the index ${dbPath} (${detail}): its folder is read-only or belongs to someone else.`);
    case 'cannot_open':
      return new IndexUnavailable('bad_path', badDbPath(dbPath) ?? `cannot open the index ${dbPath} (${detail}).`);
    case 'io':
      return new IndexUnavailable('io', `the index ${dbPath} could not be read or written (${detail}); the index was left as it was.`);
    default:
      return null;
  }
}

/**
 * Why a database path cannot work, found before opening it: a link to nothing, a folder where the
 * file should be, a file where a folder should be. Null when nothing is visibly wrong.
 */
export function badDbPath(dbPath: string): string | null {
  const path = resolve(dbPath);
  const st = lstatOrNull(path);
  if (st?.isSymbolicLink()) {
    if (!statOrNull(path)) return `the index ${dbPath} is a link to ${readlinkSync(path)}, which does not exist (or is a loop); remove the link or point --db elsewhere.`;
  }
  if (st && statOrNull(path)?.isDirectory()) return `the index ${dbPath} is a folder, not a database file; point --db (or GLASSBOX_DATA_DIR) elsewhere.`;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const d = statOrNull(dir);
    if (d) {
      if (!d.isDirectory()) return `${dir} is a file, not a folder: Glassbox keeps its index in a folder (set GLASSBOX_DATA_DIR or --db to another place).`;
      return null;
    }
    if (lstatOrNull(dir)?.isSymbolicLink()) return `${dir} is a link to ${readlinkSync(dir)}, which does not exist (or is a loop).`;
    if (dirname(dir) === dir) return null;
  }
}

function diskFull(dir: string): boolean {
  try {
    const fs = statfsSync(dir);
    return fs.bavail === 0 || fs.ffree === 0;
  } catch {
    return false;
  }
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
