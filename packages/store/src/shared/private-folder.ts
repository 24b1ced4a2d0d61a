import { chmodSync, closeSync, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Glassbox's own folders and files are private: the index holds prompts, commands and titles (secrets
 * included) and the archive whole sessions, so another user of the machine must read neither. Folders
 * Glassbox makes are 0700 and its files 0600 whatever the umask; a data folder or archive that exists
 * already and lets others in is tightened, and a one-line notice says so (SECURITY.md).
 */
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

type NoticeListener = (notice: string) => void;
const listeners = new Set<NoticeListener>();

/**
 * Hears the notices of folders made private (the CLI prints them on stderr, the app shows them like
 * the index's). Returns the function that stops listening.
 */
export function onPrivacyNotice(listener: NoticeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Folders already checked by this process: each is looked at once, not at every write. */
const checked = new Set<string>();

/** mkdir -p, every folder it creates exactly 0700 (the umask can take bits from a mode, so each is set after). */
export function makePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  for (let d = dir; ; d = dirname(d)) {
    chmodSync(d, PRIVATE_DIR_MODE);
    if (d === first || dirname(d) === d) break;
  }
}

/** Names Glassbox keeps in its data folder: a folder holding only these (or nothing) is Glassbox's to tighten. */
const OWN_NAME = /^(index\.db.*|archive|kept|chunks|objects|forks|kept-view|settings\.json|\..+\.glassbox-\d+-[0-9a-f]{8}\.tmp)$/;

/**
 * Makes Glassbox's data folder (or an archive folder) and what it needs private. A folder that exists
 * with access for others is tightened to 0700 when it is Glassbox's own (owned by this user, holding
 * only Glassbox's files) and the notice says so; a folder that is not only Glassbox's (a data folder
 * set to a shared place) is left as it is, with a notice that its files are still private.
 */
export function ensurePrivateFolder(dir: string): void {
  if (checked.has(dir)) return;
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    makePrivateDir(dir);
    checked.add(dir);
    return;
  }
  checked.add(dir);
  const open = st.mode & 0o077;
  if (!st.isDirectory() || open === 0) return;
  const mode = (st.mode & 0o777).toString(8);
  if (isOwnFolder(dir, st.uid)) {
    chmodSync(dir, PRIVATE_DIR_MODE);
    notify(`${dir} could be read by other users (mode ${mode}): made it private (700)`);
  } else {
    notify(`${dir} can be read by other users (mode ${mode}) and holds more than Glassbox's files, so it was left as it is; Glassbox's own files in it are private (600)`);
  }
}

/**
 * A folder inside Glassbox's archive (`root`): the archive made private first (and the data folder
 * around it, when it is Glassbox's own), then the folder made 0700 like every folder under it.
 */
export function makeArchiveDir(root: string, dir: string): void {
  const parent = dirname(root);
  if (!checked.has(parent) && isOwnFolderIfThere(parent)) ensurePrivateFolder(parent);
  ensurePrivateFolder(root);
  if (dir !== root) makePrivateDir(dir);
}

/** Sets an existing file of Glassbox's (the index, its WAL and shared-memory files) to 0600. */
export function tightenFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return;
  }
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) chmodOwn(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates a file Glassbox will write (the index database) empty and 0600 if it is not there, so that
 * whatever then opens it (SQLite) keeps that mode; SQLite gives its WAL and shared-memory files the
 * database file's mode. An existing file is set to 0600.
 */
export function preparePrivateFile(path: string): void {
  const fd = openSync(path, 'a', PRIVATE_FILE_MODE);
  try {
    if ((fstatSync(fd).mode & 0o777) !== PRIVATE_FILE_MODE) chmodOwn(fd);
  } finally {
    closeSync(fd);
  }
}

/** 0600 on an open file; a file of another user (a shared index) cannot be changed and is used as it is. */
function chmodOwn(fd: number): void {
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

/** A data folder around an archive is tightened only when it is Glassbox's own; a shared one is none of its business. */
function isOwnFolderIfThere(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && isOwnFolder(dir, st.uid);
  } catch {
    return false;
  }
}

function isOwnFolder(dir: string, uid: number): boolean {
  if (typeof process.getuid === 'function' && uid !== process.getuid()) return false;
  try {
    return readdirSync(dir).every((n) => OWN_NAME.test(n));
  } catch {
    return false;
  }
}

function notify(notice: string): void {
  for (const l of listeners) {
    try {
      l(notice);
    } catch {
      // A listener that throws must not stop a write.
    }
  }
}

/** For tests: forget which folders were checked. */
export function forgetCheckedFolders(): void {
  checked.clear();
}

