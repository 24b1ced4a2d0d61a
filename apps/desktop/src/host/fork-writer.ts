import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Writing a validated fork next to its original: temp file in the same folder, fsync, then an exclusive
 * link to the final name (never over an existing file), and the original's bytes kept first in a
 * content-addressed archive. The seam for the store's fork writer: swap `writeForkFile` when it lands.
 */
export function writeForkFile(originalPath: string, newSessionId: string, text: string): string {
  const target = join(dirname(originalPath), `${newSessionId}.jsonl`);
  if (existsSync(target)) throw new Error(`${target} already exists; nothing was written`);
  const temp = join(dirname(originalPath), `.${newSessionId}.jsonl.glassbox-tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, target); // fails with EEXIST rather than replacing a file
  } finally {
    unlinkSync(temp);
  }
  return target;
}

/** Stores bytes under their sha-256 (checked when read back); returns the hash. */
export function archiveBytes(dataDir: string, bytes: Buffer): string {
  const sha = createHash('sha256').update(bytes).digest('hex');
  const dir = join(dataDir, 'archive', sha.slice(0, 2));
  const path = join(dir, sha);
  if (existsSync(path) && createHash('sha256').update(readFileSync(path)).digest('hex') === sha) return sha;
  mkdirSync(dir, { recursive: true });
  const temp = `${path}.tmp-${process.pid}`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  return sha;
}
