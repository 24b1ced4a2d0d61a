import { createHash } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { ForkError, describe, safeUnlink, tempPathFor } from './atomic';

const FLUSH_BYTES = 1 << 20;

/**
 * A new file written line by line under a temporary name beside its final one (see atomic.ts),
 * hashed as it is written: the fork, streamed as its lines are made. Nothing is published here.
 */
export class LineOutput {
  readonly temp: string;
  private fd: number | null;
  private readonly hash = createHash('sha256');
  private crc = 0;
  private pending: string[] = [];
  private pendingLength = 0;
  private written = 0;
  private count = 0;

  constructor(
    readonly finalPath: string,
    private readonly mode: number,
  ) {
    this.temp = tempPathFor(finalPath);
    try {
      this.fd = openSync(this.temp, 'wx', 0o600);
    } catch (error) {
      throw new ForkError('unwritable', `cannot write in ${dirname(finalPath)} (${describe(error)}); nothing was written`);
    }
  }

  /** One line; `newline` is false only for a last line the original also ended without one. */
  line(text: string, newline: boolean): void {
    this.pending.push(newline ? text + '\n' : text);
    this.pendingLength += text.length + 1;
    this.count++;
    if (this.pendingLength >= FLUSH_BYTES) this.flush();
  }

  get lines(): number {
    return this.count;
  }

  /** Flushes the file to disk with its final mode; the temporary file stays until published or discarded. */
  close(): { sha256: string; crc32: number; bytes: number } {
    this.flush();
    try {
      if (this.fd !== null) {
        // The exact mode, whatever the umask: a fork is as readable as its original, no more.
        if (this.mode !== 0o600) fchmodSync(this.fd, this.mode);
        fsyncSync(this.fd);
        closeSync(this.fd);
        this.fd = null;
      }
    } catch (error) {
      this.discard();
      throw new ForkError('unwritable', `cannot write in ${dirname(this.finalPath)} (${describe(error)}); nothing was written`);
    }
    return { sha256: this.hash.digest('hex'), crc32: this.crc, bytes: this.written };
  }

  discard(): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = null;
    }
    safeUnlink(this.temp);
  }

  private flush(): void {
    if (this.pending.length === 0 || this.fd === null) return;
    const buf = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingLength = 0;
    this.hash.update(buf);
    this.crc = crc32(buf, this.crc);
    try {
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    } catch (error) {
      this.discard();
      throw new ForkError('unwritable', `cannot write in ${dirname(this.finalPath)} (${describe(error)}); nothing was written`);
    }
    this.written += buf.length;
  }
}
