/** 0 done; 1 refused (validation failed, nothing written); 2 bad input; 70 a bug in Glassbox. */
export const EXIT_REFUSED = 1;
export const EXIT_BAD_INPUT = 2;
/** EX_SOFTWARE: only for what can only be a bug (an error nothing here explains). */
export const EXIT_UNEXPECTED = 70;

/** Bad input or usage: reported on stderr with exit code 2, never a stack trace. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_BAD_INPUT,
  ) {
    super(message);
  }
}

/** Errors from the machine, by what they mean for the person: a path they gave, or a refusal. */
const BAD_PATH = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP', 'ENAMETOOLONG', 'EEXIST', 'SQLITE_CANTOPEN', 'SQLITE_NOTADB']);
const REFUSED: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  SQLITE_FULL: 'the disk is full',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  SQLITE_READONLY: 'the database is read-only',
  SQLITE_BUSY: 'the database is locked by another process',
  EMFILE: 'too many open files',
  EIO: 'an input/output error from the disk',
};

/**
 * An error from the machine around Glassbox (a file system or SQLite code that escaped a more
 * specific message) as a UsageError: a path that cannot work is bad input (2), a machine that says
 * no is a refusal (1). Null for anything else, which is a bug (70).
 */
export function environmentError(error: unknown): UsageError | null {
  const e = error as NodeJS.ErrnoException;
  const code = typeof e?.code === 'string' ? e.code : null;
  if (!code) return null;
  const where = e.path ? `${e.path}: ` : '';
  if (BAD_PATH.has(code)) return new UsageError(`${where}${e.message.replace(/^\w+: /, '')}`, EXIT_BAD_INPUT);
  const base = Object.keys(REFUSED).find((k) => code === k || code.startsWith(`${k}_`));
  if (base) return new UsageError(`${where}${REFUSED[base]} (${code}); nothing was changed`, EXIT_REFUSED);
  return null;
}
