import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { readWhole } from '@glassbox/file-io';
import { openedInPlace } from '../shared/in-place';

/** A regular file found under a part's folder, by its path relative to that folder. */
export interface FoundFile {
  rel: string;
  path: string;
}

export interface Skipped {
  path: string;
  reason: string;
}

function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link (never followed)';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Every regular file under a folder, without following any link: a link, FIFO, socket or device is
 * left out and reported (a keep stores what it safely can; it never reads through a link out of the
 * session's folders). A folder that does not exist has no files.
 */
export function filesUnder(dir: string, skipped: Skipped[]): FoundFile[] {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch {
    return [];
  }
  if (!st.isDirectory()) {
    skipped.push({ path: dir, reason: `is ${st.isFile() ? 'a file where a folder should be' : kindOf(st)}` });
    return [];
  }
  const out: FoundFile[] = [];
  const walk = (folder: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch (error) {
      skipped.push({ path: folder, reason: `cannot be listed (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      const r = rel ? `${rel}/${name}` : name;
      let s: Stats;
      try {
        s = lstatSync(path);
      } catch {
        continue;
      }
      if (s.isDirectory()) walk(path, r);
      else if (s.isFile()) out.push({ rel: r, path });
      else skipped.push({ path, reason: `is ${kindOf(s)}` });
    }
  };
  walk(dir, '');
  return out;
}

/** A file's bytes and what its metadata was when read. */
export interface ReadFile {
  bytes: Buffer;
  mtimeMs: number;
  mode: number;
}

/**
 * Reads a regular file through a read-only descriptor that follows no link and never blocks on a
 * FIFO; null (with the reason in `skipped`) for anything else. The size is taken from the open
 * descriptor, so a file still being appended to is read as the prefix it had then.
 */
export function readRegular(path: string, skipped: Skipped[], inPlace?: { base: string; rel: string }): ReadFile | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') skipped.push({ path, reason: code === 'ELOOP' ? 'is a symbolic link (never followed)' : `cannot be read (${code ?? 'error'})` });
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      skipped.push({ path, reason: `is ${kindOf(st)}` });
      return null;
    }
    // A folder on the way (its part's folder or one inside) that became a link is found here, after the open.
    if (inPlace && !openedInPlace(fd, path, inPlace.base, inPlace.rel)) {
      skipped.push({ path, reason: 'was reached through a link (never followed)' });
      return null;
    }
    return { bytes: readWhole(fd, st.size), mtimeMs: st.mtimeMs, mode: st.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}
