import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The UTF-8 text of `length` bytes at `offset` (one record line, by the offset and length a scan gave
 * it), read through a read-only descriptor; shorter when the file ends first.
 */
export function readSlice(path: string, offset: number, length: number): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, offset);
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}
