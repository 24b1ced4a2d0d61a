import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';

const HEAD_BYTES = 8 * 1024;
/** Rollouts are append-only and their first record never changes: each file is read once per process. */
const cwdByPath = new Map<string, string | null>();

/**
 * The folder a session ran in, from the `cwd` of its first record (`session_meta`; it comes before
 * the long instructions in every generation seen), read from the file's first 8 KB. Null when the
 * file cannot be read or names none.
 */
export function sessionCwd(path: string): string | null {
  const known = cwdByPath.get(path);
  if (known !== undefined) return known;
  const cwd = readCwd(path);
  cwdByPath.set(path, cwd);
  return cwd;
}

/**
 * The project a Codex session belongs to: the last part of its working directory (Codex has no
 * project folders; this is the name the app shows for a Claude Code session of the same folder).
 */
export function projectOf(path: string): string {
  const cwd = sessionCwd(path);
  return cwd ? basename(cwd) || cwd : '(unknown folder)';
}

function readCwd(path: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.allocUnsafe(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    const text = buf.toString('utf8', 0, n);
    const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
    const m = /"cwd":("(?:[^"\\]|\\.)*")/.exec(firstLine);
    if (!m) return null;
    const cwd: unknown = JSON.parse(m[1] as string);
    return typeof cwd === 'string' && cwd !== '' ? cwd : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
