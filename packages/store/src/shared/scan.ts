import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

const CHUNK = 1 << 20;

export interface Fingerprint {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export function fingerprintOf(st: Stats): Fingerprint {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

export function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** What a path holds when it is not a regular file, in words ("a FIFO (named pipe)"). */
export function fileKind(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/**
 * Why a path cannot be read as a transcript without blocking or reading forever (a FIFO waits for a
 * writer, a device never ends), or null for a regular file. Only regular files are ever opened.
 */
export function notRegularFile(path: string): string | null {
  const st = statSync(path);
  return st.isFile() ? null : `${path} is ${fileKind(st)}, not a regular file: only transcript files are read`;
}

const ANCHOR_BYTES = 32;

/** The bytes just before `offset`, as hex: a cheap check that what was read before is still there. */
function readAnchor(fd: number, offset: number): string {
  const len = Math.min(ANCHOR_BYTES, offset);
  const buf = Buffer.alloc(len);
  const n = len > 0 ? readSync(fd, buf, 0, len, offset - len) : 0;
  return buf.toString('hex', 0, n);
}

/** The anchor (see readAnchor) of a file at `offset`: what a later pass resuming there checks. */
export function anchorAt(path: string, offset: number): string {
  const fd = openSync(path, 'r');
  try {
    return readAnchor(fd, offset);
  } finally {
    closeSync(fd);
  }
}

export interface CompleteLinesResult {
  /** The byte offset just after the last complete line read: where the next pass resumes. */
  endOffset: number;
  endLine: number;
  /** Bytes read from the file in this pass. */
  bytesRead: number;
  /** The file as seen through the same descriptor. */
  fingerprint: Fingerprint;
  /** See readAnchor: taken at endOffset. */
  anchor: string;
  /** The anchor expected at fromOffset was not there: nothing was read, the file must be read from 0. */
  rewritten: boolean;
}

/**
 * Reads the lines of a file from `fromOffset` (a line start), passing each complete line (its
 * newline seen) to `sink`. A last line without its newline is never passed: the writer may still be
 * writing it, and the next pass resumes at its start. The file is read in fixed chunks, never whole.
 */
export function readCompleteLines(
  path: string,
  fromOffset: number,
  fromLine: number,
  sink: (text: string, line: number) => void,
  expectAnchor: string | null = null,
  /** Pass a last line without its newline too (a JSON document ends without one: its last line is complete). */
  withUnterminated = false,
): CompleteLinesResult {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    const size = st.size;
    if (fromOffset > 0 && (fromOffset > size || (expectAnchor !== null && readAnchor(fd, fromOffset) !== expectAnchor))) {
      return { endOffset: fromOffset, endLine: fromLine, bytesRead: 0, fingerprint: fingerprintOf(st), anchor: '', rewritten: true };
    }
    // No bigger than what is left to read: a small file gets a small buffer.
    const whole = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size - fromOffset)));
    // The start of a line that goes on past a chunk: its pieces, joined once when the line ends (a
    // 300 MB line is copied once, not once per chunk: re-joining it at every chunk was quadratic).
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let pos = fromOffset;
    let endOffset = fromOffset;
    let line = fromLine;
    while (pos < size) {
      const n = readSync(fd, whole, 0, Math.min(whole.length, size - pos), pos);
      if (n <= 0) break;
      // Searches stop at the bytes read: past them the buffer holds stale bytes.
      const buf = whole.subarray(0, n);
      const chunkStart = pos;
      pos += n;
      let start = 0;
      let nl = buf.indexOf(10, 0);
      while (nl >= 0) {
        let text: string;
        if (carry.length > 0) {
          text = Buffer.concat([...carry, buf.subarray(0, nl)], carryBytes + nl).toString('utf8');
          carry = [];
          carryBytes = 0;
        } else {
          text = buf.toString('utf8', start, nl);
        }
        line++;
        sink(text.endsWith('\r') ? text.slice(0, -1) : text, line);
        start = nl + 1;
        endOffset = chunkStart + start;
        nl = buf.indexOf(10, start);
      }
      if (start < n) {
        const rest = Buffer.from(buf.subarray(start, n));
        carry.push(rest);
        carryBytes += rest.length;
      }
    }
    if (withUnterminated && carryBytes > 0) {
      const text = Buffer.concat(carry, carryBytes).toString('utf8');
      line++;
      sink(text.endsWith('\r') ? text.slice(0, -1) : text, line);
      endOffset = pos;
    }
    return {
      endOffset,
      endLine: line,
      bytesRead: pos - fromOffset,
      fingerprint: fingerprintOf(st),
      anchor: readAnchor(fd, endOffset),
      rewritten: false,
    };
  } finally {
    closeSync(fd);
  }
}
