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
 * `lastLine` ends it after that line (the file as it was when that line was its last).
 */
export function scanLines(path: string, sink: LineSink, fromOffset = 0, fromLine = 0, lastLine = Infinity): ScanResult {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    // No bigger than what is left to read, and searched only over the bytes read: past them a reused
    // buffer holds stale bytes, and scanning them cost more than the parse for small files.
    const whole = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size - fromOffset)));
    let carry: Buffer | null = null;
    let pos = fromOffset;
    let lineStart = fromOffset;
    let line = fromLine;
    let lastByte = -1;
    while (pos < size && line < lastLine) {
      const n = readSync(fd, whole, 0, Math.min(whole.length, size - pos), pos);
      if (n <= 0) break;
      const buf = whole.subarray(0, n);
      pos += n;
      lastByte = buf[n - 1] ?? -1;
      let start = 0;
      let nl = buf.indexOf(10, 0);
      while (nl >= 0 && nl < n) {
        if (line >= lastLine) return { lines: line, bytes: lineStart, endsWithNewline: true };
        let text: string;
        let len: number;
        if (carry) {
          const whole: Buffer = Buffer.concat([carry, buf.subarray(0, nl)]);
          carry = null;
          text = whole.toString('utf8');
          len = whole.length;
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
        carry = carry ? Buffer.concat([carry, rest]) : rest;
      }
    }
    if (carry && carry.length > 0 && line < lastLine) {
      line++;
      sink(stripCr(carry.toString('utf8')), line, lineStart, carry.length);
    }
    return { lines: line, bytes: pos, endsWithNewline: lastByte === 10 || pos === fromOffset };
  } finally {
    closeSync(fd);
  }
}

function stripCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
