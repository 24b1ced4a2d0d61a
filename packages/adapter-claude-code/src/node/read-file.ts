import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { Problem, Session, ToolCall } from '@glassbox/core';
import { TranscriptParser } from '../parser';
import { capturedTextFromRecord } from '../tool-ops';

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
 * opened read-only and never held whole. Starting from `fromOffset` (a line start) resumes a scan.
 */
export function scanLines(path: string, sink: LineSink, fromOffset = 0, fromLine = 0): ScanResult {
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
    while (pos < size) {
      const n = readSync(fd, whole, 0, Math.min(whole.length, size - pos), pos);
      if (n <= 0) break;
      const buf = whole.subarray(0, n);
      pos += n;
      lastByte = buf[n - 1] ?? -1;
      let start = 0;
      let nl = buf.indexOf(10, 0);
      while (nl >= 0 && nl < n) {
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
    if (carry && carry.length > 0) {
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

export interface ReadSessionResult {
  session: Session;
  /** The parser, for callers that link subagents to the calls that started them. */
  parser: TranscriptParser;
}

/** Parses a transcript file. A missing or unreadable path gives a session with one fatal problem, not a throw. */
export function readSessionFile(path: string): ReadSessionResult {
  const parser = new TranscriptParser({ path, fallbackId: basename(path).replace(/\.jsonl$/i, '') });
  let scan: ScanResult;
  try {
    scan = scanLines(path, (text, line, offset, len) => parser.push(text, line, offset, len));
  } catch (error) {
    const session = parser.finish(true);
    session.problems.length = 0;
    session.problems.push(ioProblem(path, error));
    return { session, parser };
  }
  const session = parser.finish(scan.endsWithNewline);
  session.stats.bytes = scan.bytes;
  session.capturedTextOf = capturedTextReader(path, session);
  return { session, parser };
}

export function ioProblem(path: string, error: unknown): Problem {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return { code: 'file_missing', severity: 'error', file: path, message: `${path}: no such file` };
  }
  if (code === 'EISDIR') {
    return { code: 'file_unreadable', severity: 'error', file: path, message: `${path}: is a folder, not a transcript file` };
  }
  return {
    code: 'file_unreadable',
    severity: 'error',
    file: path,
    message: `${path}: cannot be read (${code ?? (error as Error).message})`,
  };
}

/**
 * Reads a read's captured text back from the transcript line that holds its result, so the parser
 * need not keep every read in memory. A line that no longer holds the record (the file was
 * replaced) gives null: no text, no proof.
 */
function capturedTextReader(path: string, session: Session): (call: ToolCall) => string | null {
  return (call) => {
    const node = call.resultUuid ? session.nodes.get(call.resultUuid) : undefined;
    if (!node) return null;
    try {
      const fd = openSync(path, 'r');
      try {
        const buf = Buffer.allocUnsafe(node.length);
        const n = readSync(fd, buf, 0, node.length, node.offset);
        const record = JSON.parse(buf.toString('utf8', 0, n)) as { uuid?: unknown };
        if (record.uuid !== node.uuid) return null;
        return capturedTextFromRecord(record, call.id);
      } finally {
        closeSync(fd);
      }
    } catch {
      return null;
    }
  };
}
