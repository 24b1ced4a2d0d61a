import { createHash } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import type { LineSplice } from '@glassbox/core';
import { ForkError, describe, safeUnlink, tempPathFor } from './atomic';

const BUFFER_BYTES = 1 << 22;

/**
 * Lines assembled as bytes in one reusable buffer: a line given as a splice of its original's bytes
 * is copied (never decoded or re-encoded), a line given as text is encoded once. Full buffers go to
 * `drain`.
 */
export class LineBytes {
  private buf: Buffer;
  private used = 0;
  private count = 0;

  constructor(
    private readonly drain: (bytes: Buffer) => void,
    size = BUFFER_BYTES,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /**
   * Appends the next line, after a newline unless it is the first, and returns its bytes (without the
   * newline): valid until the next call.
   */
  append(original: Uint8Array, line: string | LineSplice): Buffer {
    const separator = this.count > 0 ? 1 : 0;
    const size = typeof line === 'string' ? Buffer.byteLength(line, 'utf8') : original.byteLength - (line.end - line.start) + line.insert.byteLength;
    this.reserve(separator + size);
    if (separator) this.buf[this.used++] = 10;
    const at = this.used;
    if (typeof line === 'string') this.buf.write(line, at, 'utf8');
    else {
      this.buf.set(original.subarray(0, line.start), at);
      this.buf.set(line.insert, at + line.start);
      this.buf.set(original.subarray(line.end), at + line.start + line.insert.byteLength);
    }
    this.used = at + size;
    this.count++;
    return this.buf.subarray(at, at + size);
  }

  /** A final newline (after the last line, when the original ended with one). */
  newline(): void {
    this.reserve(1);
    this.buf[this.used++] = 10;
  }

  get lines(): number {
    return this.count;
  }

  /** Hands over what is buffered. */
  flush(): void {
    if (this.used === 0) return;
    this.drain(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buf.length) return;
    this.flush();
    // One line longer than the buffer: a buffer of its size (the next lines use it too).
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafe(bytes);
  }
}

/**
 * A new file written line by line under a temporary name beside its final one (see atomic.ts),
 * hashed as it is written: the fork, streamed as its lines are made. Nothing is published here.
 */
export class LineOutput {
  readonly temp: string;
  private fd: number | null;
  private readonly hash = createHash('sha256');
  private crc = 0;
  private written = 0;
  private readonly bytes = new LineBytes((chunk) => this.write(chunk));

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

  /** The next line (see LineBytes.append): its bytes as they will be written, valid until the next call. */
  append(original: Uint8Array, line: string | LineSplice): Buffer {
    return this.bytes.append(original, line);
  }

  /** Ends the file with a newline (when the original ended with one). */
  newline(): void {
    this.bytes.newline();
  }

  get lines(): number {
    return this.bytes.lines;
  }

  /** Flushes the file to disk with its final mode; the temporary file stays until published or discarded. */
  close(): { sha256: string; crc32: number; bytes: number } {
    this.bytes.flush();
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

  private write(buf: Buffer): void {
    if (this.fd === null) return;
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
