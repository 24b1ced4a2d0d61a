import { createHash, type Hash } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import type { LineSplice } from '@glassbox/core';
import { ForkError, describe, safeUnlink, tempPathFor } from '../shared/atomic';
import { ABORT, ClaimedThread, SEQ } from './claimed-thread';
import { checksumFile } from './lines';

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

// The fork's bytes hashed as they land: the thread reads back from the temporary file what the writer
// says is written (extra[0]), until the writer gives the final length (extra[1], -1 until then).
const DIGEST = `
const { fd, chunk } = workerData;
const { readSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { crc32 } = require('node:zlib');
const marks = new BigInt64Array(workerData.extra, 0, 2);
const hash = createHash('sha256');
const buf = Buffer.allocUnsafe(chunk);
let pos = 0;
let crc = 0;
for (;;) {
  if (Atomics.load(flags, ${ABORT}) !== 0) return { error: 'cancelled' };
  const seq = Atomics.load(flags, ${SEQ});
  const written = Number(Atomics.load(marks, 0));
  while (pos < written) {
    const n = readSync(fd, buf, 0, Math.min(chunk, written - pos), pos);
    if (n <= 0) return { error: 'the fork could not be read back' };
    const piece = buf.subarray(0, n);
    hash.update(piece);
    crc = crc32(piece, crc);
    pos += n;
  }
  const final = Number(Atomics.load(marks, 1));
  if (final >= 0 && pos >= final) return { sha256: hash.digest('hex'), crc32: crc, bytes: pos };
  Atomics.wait(flags, ${SEQ}, seq, 1000);
}
`;

interface Digest {
  sha256: string;
  crc32: number;
  bytes: number;
}

/**
 * A new file written line by line under a temporary name beside its final one (see atomic.ts),
 * hashed as it is written: the fork, streamed as its lines are made. Nothing is published here.
 * A big fork is hashed on a thread of its own that reads back what was written (`digestThread`), so
 * the writing thread only copies and writes; if that thread has not begun by the end, the file is
 * read back here instead.
 */
export class LineOutput {
  readonly temp: string;
  private fd: number | null;
  private readonly hash: Hash | null;
  private crc = 0;
  private written = 0;
  private readonly bytes = new LineBytes((chunk) => this.write(chunk));
  private readonly digest: ClaimedThread<Digest> | null = null;
  private readonly marks: BigInt64Array | null = null;

  constructor(
    readonly finalPath: string,
    private readonly mode: number,
    /** `waitForThread` (tests): returns once the thread has begun, so the thread does the hashing. */
    options: { digestThread?: boolean; waitForThread?: boolean } = {},
  ) {
    this.temp = tempPathFor(finalPath);
    try {
      this.fd = openSync(this.temp, options.digestThread ? 'wx+' : 'wx', 0o600);
    } catch (error) {
      throw new ForkError('unwritable', `cannot write in ${dirname(finalPath)} (${describe(error)}); nothing was written`);
    }
    if (options.digestThread) {
      this.digest = new ClaimedThread<Digest>('', DIGEST, { fd: this.fd, chunk: 1 << 20 }, 16);
      this.marks = new BigInt64Array(this.digest.extra, 0, 2);
      Atomics.store(this.marks, 1, -1n);
      this.hash = null;
      if (options.waitForThread) this.digest.awaitClaim();
    } else this.hash = createHash('sha256');
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
  close(): Digest {
    this.bytes.flush();
    try {
      if (this.fd !== null) {
        // The exact mode, whatever the umask: a fork is as readable as its original, no more.
        if (this.mode !== 0o600) fchmodSync(this.fd, this.mode);
        fsyncSync(this.fd);
      }
    } catch (error) {
      this.discard();
      throw new ForkError('unwritable', `cannot write in ${dirname(this.finalPath)} (${describe(error)}); nothing was written`);
    }
    const digest = this.finalDigest();
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
    return digest;
  }

  /** The hash of what was written: from the thread, from this thread's own hash, or read back. */
  private finalDigest(): Digest {
    if (this.hash) return { sha256: this.hash.digest('hex'), crc32: this.crc, bytes: this.written };
    const digest = this.digest as ClaimedThread<Digest>;
    if (!digest.claim()) {
      const back = checksumFile(this.temp, { sha256: true });
      return { sha256: back.sha256 as string, crc32: back.crc32, bytes: back.bytes };
    }
    Atomics.store(this.marks as BigInt64Array, 1, BigInt(this.written));
    digest.poke();
    const got = digest.wait();
    if ('error' in got || got.bytes !== this.written) {
      this.discard();
      throw new ForkError('unwritable', `cannot read back ${this.temp} (${'error' in got ? got.error : 'short'}); nothing was written`);
    }
    return got;
  }

  discard(): void {
    // The digest thread lets go of the file before it is closed.
    this.digest?.stop();
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
    if (this.hash) {
      this.hash.update(buf);
      this.crc = crc32(buf, this.crc);
    }
    try {
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    } catch (error) {
      this.discard();
      throw new ForkError('unwritable', `cannot write in ${dirname(this.finalPath)} (${describe(error)}); nothing was written`);
    }
    this.written += buf.length;
    if (this.marks && this.digest) {
      Atomics.store(this.marks, 0, BigInt(this.written));
      this.digest.poke();
    }
  }
}
