import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { isCancelled, type LoadOptions, type ReadProgress, type Session, type ToolCall } from '@glassbox/core';
import { ioProblem, scanLines, type LineSink, type ScanResult } from '@glassbox/file-io';
import { isObject } from '../record-types';
import { TranscriptParser } from '../parser';
import { capturedTextFromRecord } from '../tool-ops';

export { scanLines, ioProblem };

export interface ReadSessionResult {
  session: Session;
  /** The parser, for callers that link subagents to the calls that started them. */
  parser: TranscriptParser;
}

export interface ReadSessionOptions {
  /** Hears each chunk read; a CancelledError it throws stops the read and is thrown. */
  progress?: ReadProgress | undefined;
  /** Sees each chunk's bytes. */
  onBytes?: ((chunk: Uint8Array) => void) | undefined;
  onRecord?: LoadOptions['onRecord'] | undefined;
  /** Work out the previews shown beside each block (default true; the index does without). */
  previews?: boolean;
}

/** Parses a transcript file. A missing or unreadable path gives a session with one fatal problem, not a throw. */
export function readSessionFile(path: string, options: ReadSessionOptions = {}): ReadSessionResult {
  const { progress, onBytes, onRecord } = options;
  const parser = new TranscriptParser({ path, fallbackId: basename(path).replace(/\.jsonl$/i, ''), previews: options.previews !== false });
  let scan: ScanResult;
  // With onRecord, each line is parsed here once, for the caller and the parser alike.
  const sink: LineSink = onRecord
    ? (text, line, offset, len) => {
        const record = parseOrUndefined(text);
        onRecord(text, line, offset, len, record);
        parser.push(text, line, offset, len, isObject(record) ? record : undefined);
      }
    : (text, line, offset, len) => parser.push(text, line, offset, len);
  try {
    scan = scanLines(path, sink, 0, 0, Infinity, progress, onBytes);
  } catch (error) {
    if (isCancelled(error)) throw error;
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

function parseOrUndefined(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads a read's captured text back from the transcript line that holds its result, so the parser
 * need not keep every read in memory. A line that no longer holds the record (the file was
 * replaced) gives null: no text, no proof.
 */
export function capturedTextReader(path: string, session: Session): (call: ToolCall) => string | null {
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
