import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { scanLines, type LineSink } from './scan-lines';

/**
 * How many bytes before the end of what was read are compared on each update: a rewrite of the file
 * (a fork written over it, an editor's save) that happens to leave it longer is caught here, as the
 * bytes of the last line read are no longer where they were.
 */
const TAIL_BYTES = 512;

/** What `FollowedLines.advance` found. */
export type Advance = 'unchanged' | 'appended' | 'rewritten';

/**
 * A file of lines read once and then followed as it grows: each update hands the sink only the
 * complete lines appended since (a last line without its newline waits for the next update, so a
 * line still being written is never read half). Whatever keeps state from the lines (an agent's
 * parser) stays with the caller; this keeps where the next line starts and how to tell an append from
 * a rewrite: another file at the path (device or inode), a file shorter than what was read, or the
 * last bytes read no longer where they were.
 */
export class FollowedLines {
  private readonly dev: number;
  private readonly ino: number;
  /** The offset just past the last complete line handed on, and that line's number. */
  private offset = 0;
  private line = 0;
  private tail: Buffer = Buffer.alloc(0);
  private size = -1;
  private mtimeMs = -1;

  constructor(
    readonly path: string,
    private readonly sink: LineSink,
    progress?: (done: number, total: number) => void,
  ) {
    const st = statSync(path);
    this.dev = st.dev;
    this.ino = st.ino;
    this.read(progress);
  }

  /** Bytes handed on so far: the end of the last complete line. */
  get bytes(): number {
    return this.offset;
  }

  /** Reads what was appended since the last read; 'rewritten' (nothing read) when the file is no longer what was read. */
  advance(progress?: (done: number, total: number) => void): Advance {
    const st = statSync(this.path);
    if (st.size === this.size && st.mtimeMs === this.mtimeMs) return 'unchanged';
    if (st.dev !== this.dev || st.ino !== this.ino || st.size < this.offset || !this.tailIntact()) return 'rewritten';
    const before = this.offset;
    this.read(progress);
    return this.offset === before ? 'unchanged' : 'appended';
  }

  /**
   * Hands on the complete lines from the offset on. Each line goes once the next one is seen (or the
   * file ends with a newline), so a last line still being written waits for the next update.
   */
  private read(progress?: (done: number, total: number) => void): void {
    let held: { text: string; line: number; offset: number; len: number } | null = null;
    const start = this.offset;
    const scan = scanLines(
      this.path,
      (text, line, offset, len) => {
        if (held) this.hand(held);
        held = { text, line, offset, len };
      },
      this.offset,
      this.line,
      Infinity,
      progress ? (done, total) => progress(done - start, total - start) : undefined,
    );
    const last = held as { text: string; line: number; offset: number; len: number } | null;
    if (last && scan.endsWithNewline) this.hand(last);
    const st = statSync(this.path);
    // The size read up to (scanLines reads to the size it saw when it opened the file).
    this.size = scan.bytes === st.size ? st.size : -1;
    this.mtimeMs = scan.bytes === st.size ? st.mtimeMs : -1;
    this.tail = this.bytesBefore(this.offset);
  }

  private hand(l: { text: string; line: number; offset: number; len: number }): void {
    this.sink(l.text, l.line, l.offset, l.len);
    this.offset = l.offset + l.len + 1;
    this.line = l.line;
  }

  private tailIntact(): boolean {
    return this.bytesBefore(this.offset).equals(this.tail);
  }

  private bytesBefore(end: number): Buffer {
    const n = Math.min(TAIL_BYTES, end);
    const buf = Buffer.alloc(n);
    if (n === 0) return buf;
    const fd = openSync(this.path, 'r');
    try {
      const got = readSync(fd, buf, 0, n, end - n);
      return buf.subarray(0, got);
    } finally {
      closeSync(fd);
    }
  }
}
