import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** An error the user can act on: what happened and what to do, never a stack trace. */
/** Opens a source read-only; a file that is gone or unreadable is a ForkError naming it. */
export function openSourceReadOnly(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ForkError('source_unreadable', code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot be read (${code ?? 'error'})`);
  }
}

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
      | 'unsafe_side_file'
      | 'side_file_missing'
      | 'cancelled'
      | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/**
 * `.<name>.glassbox-<pid>-<random>.tmp` beside the final name: hidden, and naming the process that
 * writes it, so a later run can tell a leftover of a process that died (leftovers.ts) from the
 * work of one still running.
 */
export function tempPathFor(finalPath: string): string {
  return join(dirname(finalPath), `.${basename(finalPath)}.glassbox-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** The pid a temporary name of ours carries, or null for any other name. */
export function leftoverPid(name: string): number | null {
  const m = /^\..+\.glassbox-(\d+)-[0-9a-f]{8}\.tmp$/.exec(name);
  return m?.[1] ? Number(m[1]) : null;
}

/** The final name a temporary name of ours stands for (`.x.jsonl.glassbox-1-ab12cd34.tmp` → `x.jsonl`). */
export function finalNameOf(tempName: string): string {
  return tempName.replace(/^\./, '').replace(/\.glassbox-\d+-[0-9a-f]{8}\.tmp$/, '');
}

/** Files Glassbox writes for itself (archive objects, manifests) are private. */
const PRIVATE_MODE = 0o600;

function writeTemp(path: string, data: Buffer | string, mode: number): void {
  const fd = openSync(path, 'wx', PRIVATE_MODE);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    // The exact mode, whatever the umask: a fork is as readable as its original, no more.
    if (mode !== PRIVATE_MODE) fchmodSync(fd, mode);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function fsyncDir(dir: string): void {
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

export function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : String(e.message ?? e);
}

/**
 * Writes a new file atomically and never over an existing one: a temporary file in the same folder,
 * flushed, then hard-linked to its name (which fails if the name exists) and the temporary removed.
 * Where hard links are not supported, falls back to a rename after an existence check. On any
 * failure nothing is left behind; if the process dies, its temporary file is removed by the next run.
 */
export function writeNewFileAtomic(finalPath: string, data: Buffer | string, mode = PRIVATE_MODE): void {
  publishTemp(writeTempFile(finalPath, data, mode), finalPath);
}

/** The first half of writeNewFileAtomic: the bytes, flushed, under a temporary name beside `finalPath`. */
export function writeTempFile(finalPath: string, data: Buffer | string, mode = PRIVATE_MODE): string {
  const temp = tempPathFor(finalPath);
  try {
    writeTemp(temp, data, mode);
  } catch (error) {
    safeUnlink(temp);
    throw new ForkError('unwritable', `cannot write in ${dirname(finalPath)} (${describe(error)}); nothing was written`);
  }
  return temp;
}

/** The second half: gives a temporary file its final name, never over an existing file; the temporary is gone after. */
export function publishTemp(temp: string, finalPath: string): void {
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
    writeTemp(temp, data, PRIVATE_MODE);
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
