import { readSync } from 'node:fs';

/**
 * The bytes of an open file from its start, `size` of them (its size when it was checked); fewer when
 * it has shrunk since. The caller opened the descriptor (how, is its own safety decision) and closes it.
 */
export function readWhole(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, buf, off, size - off, off);
    if (n <= 0) break;
    off += n;
  }
  return off === size ? buf : buf.subarray(0, off);
}
