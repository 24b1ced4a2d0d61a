import { isUtf8 } from 'node:buffer';
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, readSync, statSync, type BigIntStats } from 'node:fs';
import { crc32 } from 'node:zlib';
import { ForkError, openSourceReadOnly } from '../shared/atomic';
import type { ForkJob } from './job';

const CHUNK = 1 << 20;

/** What identifies a file's bytes without reading them: the kernel changes `ctime` on every write. */
export interface SourceStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

function stampOf(st: BigIntStats): SourceStamp {
  return { dev: Number(st.dev), ino: Number(st.ino), size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

/** The stamp of a file by path; null when it cannot be read. */
export function stampOfPath(path: string): SourceStamp | null {
  try {
    return stampOf(statSync(path, { bigint: true }));
  } catch {
    return null;
  }
}

export function sameStamp(a: SourceStamp | null, b: SourceStamp | null): boolean {
  if (!a || !b) return false;
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** What a pass over a file saw. */
export interface LinePass {
  lines: number;
  bytes: number;
  endsWithNewline: boolean;
  /** Of every byte read: cheap, to tell two passes over the same bytes from two over different ones. */
  crc32: number;
  /** Of every byte read, when the pass was asked for it (it costs more than reading). */
  sha256: string | null;
  /** The file when the pass began, through the descriptor it read. */
  stamp: SourceStamp;
}

/**
 * Reads a file line by line, exactly: lines are the pieces between `\n` bytes (a `\r` stays part of
 * its line), and the piece after a final newline is no line, so joining the lines with `\n` (and a
 * final newline when the file had one) gives the file's bytes back. The file is opened read-only and
 * read in fixed chunks; every byte goes through `onChunk`, a CRC-32 and (when asked) a sha-256. A
 * line that is not valid UTF-8 is refused: a fork could not keep its bytes.
 */
export class ExactLineReader {
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(CHUNK);
  private readonly hash: Hash | null;
  private crc = 0;
  private readonly size: number;
  readonly stamp: SourceStamp;
  private pos = 0;
  private start = 0;
  private end = 0;
  private carry: Buffer[] = [];
  private carryBytes = 0;
  private line = 0;
  private lastByte = -1;
  private done = false;

  constructor(
    private readonly path: string,
    private readonly onChunk?: (chunk: Buffer) => void,
    private readonly job?: ForkJob,
    /** Shown in progress reports ("reading the original"). */
    private readonly stage = 'reading',
    sha256 = false,
  ) {
    this.hash = sha256 ? createHash('sha256') : null;
    this.fd = openSourceReadOnly(path);
    this.stamp = stampOf(fstatSync(this.fd, { bigint: true }));
    this.size = this.stamp.size;
  }

  /** The next line, or null after the last one. */
  next(): string | null {
    const raw = this.nextBytes();
    return raw === null ? null : this.decode(raw);
  }

  /**
   * The next line's bytes, undecoded (and not checked to be UTF-8), or null after the last one. They
   * are valid until the next call: the read buffer is reused.
   */
  nextBytes(): Buffer | null {
    if (this.done) return null;
    for (;;) {
      if (this.start < this.end) {
        const nl = this.buf.indexOf(10, this.start);
        if (nl >= 0 && nl < this.end) {
          const bytes = this.take(nl);
          this.start = nl + 1;
          return bytes;
        }
        this.keep(this.buf.subarray(this.start, this.end));
        this.start = this.end;
      }
      if (!this.fill()) break;
    }
    this.done = true;
    // The last piece is a line unless the file ended with a newline (an empty file is one empty line).
    if (this.lastByte === 10) return null;
    const bytes = Buffer.concat(this.carry, this.carryBytes);
    this.carry = [];
    this.line++;
    return bytes;
  }

  /** Ends the pass: closes the file and says what it held. */
  finish(): LinePass {
    while (this.nextBytes() !== null) {
      // drain what the caller did not read
    }
    closeSync(this.fd);
    return { lines: this.line, bytes: this.pos, endsWithNewline: this.lastByte === 10, crc32: this.crc, sha256: this.hash?.digest('hex') ?? null, stamp: this.stamp };
  }

  /** Closes the file without reading on (a pass given up). */
  close(): void {
    if (!this.done) {
      this.done = true;
      closeSync(this.fd);
    }
  }

  private fill(): boolean {
    this.job?.throwIfCancelled();
    if (this.pos >= this.size) return false;
    const n = readSync(this.fd, this.buf, 0, Math.min(CHUNK, this.size - this.pos), this.pos);
    if (n <= 0) return false;
    const chunk = this.buf.subarray(0, n);
    this.hash?.update(chunk);
    this.crc = crc32(chunk, this.crc);
    this.onChunk?.(chunk);
    this.pos += n;
    this.lastByte = chunk[n - 1] ?? -1;
    this.start = 0;
    this.end = n;
    this.job?.progress(this.stage, this.pos, this.size);
    return true;
  }

  private keep(piece: Buffer): void {
    if (piece.length === 0) return;
    // A copy: the chunk buffer is reused by the next read.
    this.carry.push(Buffer.from(piece));
    this.carryBytes += piece.length;
  }

  private take(nl: number): Buffer {
    this.line++;
    if (this.carry.length === 0) return this.buf.subarray(this.start, nl);
    this.keep(this.buf.subarray(this.start, nl));
    const whole = Buffer.concat(this.carry, this.carryBytes);
    this.carry = [];
    this.carryBytes = 0;
    return whole;
  }

  /** A line's bytes as text; a line that is not valid UTF-8 ends the pass with a ForkError. */
  decode(bytes: Buffer): string {
    // Checked on the bytes (natively, faster than a second look at the text): undecodable bytes would
    // become U+FFFD and the fork could not give them back.
    const text = bytes.toString('utf8');
    if (!isUtf8(bytes)) {
      this.close();
      throw new ForkError('source_not_utf8', `${this.path} is not valid UTF-8 (line ${this.line}); a fork could not keep its bytes exactly, so none is made`);
    }
    return text;
  }
}

/**
 * One pass over a file's exact lines (see ExactLineReader): `onLine` gets each line's text, or
 * `onBytes` its undecoded bytes (valid during the call only) when given.
 */
export function scanExact(
  path: string,
  onLine: (text: string, line: number) => void,
  options: { onChunk?: (chunk: Buffer) => void; onBytes?: (bytes: Buffer, line: number) => void; job?: ForkJob; stage?: string; sha256?: boolean } = {},
): LinePass {
  const reader = new ExactLineReader(path, options.onChunk, options.job, options.stage, options.sha256);
  try {
    let line = 0;
    const onBytes = options.onBytes;
    if (onBytes) for (let bytes = reader.nextBytes(); bytes !== null; bytes = reader.nextBytes()) onBytes(bytes, ++line);
    else for (let text = reader.next(); text !== null; text = reader.next()) onLine(text, ++line);
  } catch (error) {
    reader.close();
    throw error;
  }
  return reader.finish();
}

/**
 * A file's bytes, read in chunks through a read-only descriptor: their CRC-32 (a re-read that must
 * find the bytes a pass read) and, when asked, their sha-256.
 */
export function checksumFile(
  path: string,
  options: { job?: ForkJob; stage?: string; sha256?: boolean } = {},
): { sha256: string | null; crc32: number; bytes: number; stamp: SourceStamp; lastByte: number } {
  const fd = openSourceReadOnly(path);
  try {
    const stamp = stampOf(fstatSync(fd, { bigint: true }));
    const hash = options.sha256 ? createHash('sha256') : null;
    let crc = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    let pos = 0;
    let lastByte = -1;
    while (pos < stamp.size) {
      options.job?.throwIfCancelled();
      const n = readSync(fd, buf, 0, Math.min(CHUNK, stamp.size - pos), pos);
      if (n <= 0) break;
      const chunk = buf.subarray(0, n);
      hash?.update(chunk);
      crc = crc32(chunk, crc);
      pos += n;
      lastByte = chunk[n - 1] ?? -1;
      options.job?.progress(options.stage ?? 'checking', pos, stamp.size);
    }
    return { sha256: hash?.digest('hex') ?? null, crc32: crc, bytes: pos, stamp, lastByte };
  } finally {
    closeSync(fd);
  }
}

/** The sha-256 of a file's bytes (see checksumFile). */
export function hashFile(path: string, job?: ForkJob, stage = 'checking'): string {
  return checksumFile(path, { ...(job ? { job } : {}), stage, sha256: true }).sha256 as string;
}

/**
 * The text of a few lines of a file, each read where a parse placed it (`offset`, up to the newline
 * after `length` bytes), through a read-only descriptor of the file as `expect` stamps it. Null when
 * any is not a whole valid-UTF-8 line there (no newline just before it, or none where it should end),
 * or the file is no longer the one stamped: the caller reads the file instead.
 */
export function readLines(path: string, refs: readonly { offset: number; length: number }[], expect: SourceStamp): string[] | null {
  const fd = openSourceReadOnly(path);
  try {
    if (!sameStamp(expect, stampOf(fstatSync(fd, { bigint: true })))) return null;
    const out: string[] = [];
    for (const r of refs) {
      // The byte before the line, the line, and the byte after (a `\r` of a CRLF line is the line's).
      const start = Math.max(0, r.offset - 1);
      const want = r.offset - start + r.length + 2;
      const buf = Buffer.allocUnsafe(want);
      const n = readSync(fd, buf, 0, want, start);
      const before = r.offset === 0 ? 10 : buf[0];
      const body = buf.subarray(r.offset - start, n);
      let end = body.indexOf(10);
      if (end < 0 && start + (r.offset - start) + body.length === expect.size) end = body.length;
      if (before !== 10 || end < r.length || end > r.length + 1) return null;
      const bytes = body.subarray(0, end);
      if (!isUtf8(bytes)) return null;
      out.push(bytes.toString('utf8'));
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
