import type { Problem } from '@glassbox/core';

/** A file that cannot be read, as a problem naming it (never a throw). */
export function ioProblem(path: string, error: unknown): Problem {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return { code: 'file_missing', severity: 'error', file: path, message: `${path}: no such file` };
  }
  if (code === 'EISDIR') {
    return { code: 'file_unreadable', severity: 'error', file: path, message: `${path}: is a folder, not a transcript file` };
  }
  return {
    code: 'file_unreadable',
    severity: 'error',
    file: path,
    message: `${path}: cannot be read (${code ?? (error as Error).message})`,
  };
}
