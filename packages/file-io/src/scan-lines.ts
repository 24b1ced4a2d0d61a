import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;

export interface LineSink {
  (text: string, line: number, offset: number, byteLength: number): void;
}

export interface ScanResult {
  lines: number;
  bytes: number;
  endsWithNewline: boolean;
}

/**
 * Reads a file line by line in fixed-size chunks, with each line's number and byte offset. The file is
 * opened read-only and never held whole. Starting from `fromOffset` (a line start) resumes a scan;
 * `lastLine` ends it after that line (the file as it was when that line was its last). `onProgress`
 * hears the bytes read after each chunk (and may throw to stop the scan); `onChunk` sees the chunk.
 */
export function scanLines(
  path: string,
  sink: LineSink,
  fromOffset = 0,
  fromLine = 0,
  lastLine = Infinity,
  onProgress?: (bytesRead: number, size: number) => void,
  /** Every chunk's bytes as read (valid during the call only). */
  onChunk?: (chunk: Buffer) => void,
): ScanResult {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    // No bigger than what is left to read, and searched only over the bytes read: past them a reused
    // buffer holds stale bytes, and scanning them cost more than the parse for small files.
    const whole = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size - fromOffset)));
    // The start of a line that goes on past a chunk: its pieces, joined once when the line ends (a
    // 300 MB line is copied once, not once per chunk).
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let pos = fromOffset;
    let lineStart = fromOffset;
    let line = fromLine;
    let lastByte = -1;
    while (pos < size && line < lastLine) {
      const n = readSync(fd, whole, 0, Math.min(whole.length, size - pos), pos);
      if (n <= 0) break;
      const buf = whole.subarray(0, n);
      onChunk?.(buf);
      pos += n;
      onProgress?.(pos, size);
      lastByte = buf[n - 1] ?? -1;
      let start = 0;
      let nl = buf.indexOf(10, 0);
      while (nl >= 0 && nl < n) {
        if (line >= lastLine) return { lines: line, bytes: lineStart, endsWithNewline: true };
        let text: string;
        let len: number;
        if (carry.length > 0) {
          const joined: Buffer = Buffer.concat([...carry, buf.subarray(0, nl)], carryBytes + nl);
          carry = [];
          carryBytes = 0;
          text = joined.toString('utf8');
          len = joined.length;
        } else {
          text = buf.toString('utf8', start, nl);
          len = nl - start;
        }
        line++;
        sink(stripCr(text), line, lineStart, len);
        lineStart += len + 1;
        start = nl + 1;
        nl = buf.indexOf(10, start);
      }
      if (start < n) {
        const rest = Buffer.from(buf.subarray(start, n));
        carry.push(rest);
        carryBytes += rest.length;
      }
    }
    if (carryBytes > 0 && line < lastLine) {
      const last = Buffer.concat(carry, carryBytes);
      line++;
      sink(stripCr(last.toString('utf8')), line, lineStart, last.length);
    }
    return { lines: line, bytes: pos, endsWithNewline: lastByte === 10 || pos === fromOffset };
  } finally {
    closeSync(fd);
  }
}

function stripCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
