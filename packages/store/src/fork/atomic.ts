import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** An error the user can act on: what happened and what to do, never a stack trace. */
export class ForkError extends Error {
  constructor(
    readonly code:
      | 'source_unreadable'
      | 'source_changed'
      | 'source_not_utf8'
      | 'exists'
      | 'unwritable'
      | 'archive_corrupt'
      | 'archive_missing'
      | 'not_a_fork'
      | 'segment_not_found'
      | 'nothing_to_do'
      | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

function tempPathFor(finalPath: string): string {
  return join(dirname(finalPath), `.${basename(finalPath)}.glassbox-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

function writeTemp(path: string, data: Buffer | string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a folder; the file itself was flushed.
  }
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : String(e.message ?? e);
}

/**
 * Writes a new file atomically and never over an existing one: a temporary file in the same folder,
 * flushed, then hard-linked to its name (which fails if the name exists) and the temporary removed.
 * Where hard links are not supported, falls back to a rename after an existence check. On any
 * failure nothing is left behind.
 */
export function writeNewFileAtomic(finalPath: string, data: Buffer | string): void {
  const temp = tempPathFor(finalPath);
  try {
    writeTemp(temp, data);
  } catch (error) {
    safeUnlink(temp);
    throw new ForkError('unwritable', `cannot write in ${dirname(finalPath)} (${describe(error)}); nothing was written`);
  }
  try {
    linkSync(temp, finalPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      safeUnlink(temp);
      throw new ForkError('exists', `${finalPath} already exists; it was left as it was and nothing was written`);
    }
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EXDEV' || code === 'EOPNOTSUPP') {
      if (existsSync(finalPath)) {
        safeUnlink(temp);
        throw new ForkError('exists', `${finalPath} already exists; it was left as it was and nothing was written`);
      }
      try {
        renameSync(temp, finalPath);
        fsyncDir(dirname(finalPath));
        return;
      } catch (e2) {
        safeUnlink(temp);
        throw new ForkError('unwritable', `cannot create ${finalPath} (${describe(e2)}); nothing was written`);
      }
    }
    safeUnlink(temp);
    throw new ForkError('unwritable', `cannot create ${finalPath} (${describe(error)}); nothing was written`);
  }
  safeUnlink(temp);
  fsyncDir(dirname(finalPath));
}

/** Replaces a file of our own (an archive object found corrupted) atomically: temp, flush, rename. */
export function replaceFileAtomic(finalPath: string, data: Buffer | string): void {
  const temp = tempPathFor(finalPath);
  try {
    writeTemp(temp, data);
    renameSync(temp, finalPath);
    fsyncDir(dirname(finalPath));
  } catch (error) {
    safeUnlink(temp);
    throw new ForkError('unwritable', `cannot write ${finalPath} (${describe(error)})`);
  }
}

export function safeUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
