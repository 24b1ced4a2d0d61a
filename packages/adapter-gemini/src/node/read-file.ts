import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { ioProblem, scanLines, type ScanResult } from '@glassbox/file-io';
import { isCancelled, type ReadProgress } from '@glassbox/core';
import { GeminiParser, type GeminiSession } from '../parser';
import { shortIdOfName } from './names';

/** A document rewritten this recently is taken to be mid-write: busy, not broken. */
export const BUSY_MS = 10_000;

/**
 * Parses a chat file from disk, line by line (read-only). A log is replayed as it streams; a document
 * is kept until its end (it is one JSON value). A document that does not parse is, when the file was
 * written in the last seconds, a rewrite the client has not finished ("busy: read it again"), else a
 * damaged one: both are refused, with the file and the line where it breaks.
 */
export function readChatFile(path: string, options: { progress?: ReadProgress; onBytes?: (chunk: Uint8Array) => void; keepCapturedText?: boolean; now?: number } = {}): GeminiSession {
  const parser = new GeminiParser({ path, fallbackId: shortIdOfName(basename(path)) ?? '', keepCapturedText: options.keepCapturedText === true });
  let scan: ScanResult;
  try {
    scan = scanLines(path, (text, line, offset, length) => parser.push(text, line, offset, length), 0, 0, Infinity, options.progress, options.onBytes);
  } catch (error) {
    if (isCancelled(error)) throw error;
    const session = parser.finish(true);
    session.problems.unshift(ioProblem(path, error));
    return session;
  }
  const session = parser.finish(scan.endsWithNewline);
  const cut = session.problems.find((p) => p.code === 'document_incomplete');
  if (cut) {
    const age = ageMs(path, options.now ?? Date.now());
    if (age !== null && age < BUSY_MS) {
      cut.message = `${path}:${cut.line ?? 1}: Gemini CLI is rewriting this chat (written ${Math.round(age / 1000)} s ago and not complete yet): busy — open it again in a moment`;
    } else {
      cut.code = 'not_a_transcript';
      cut.message = cut.message.replace(/; it may be half-written by a running Gemini CLI/, '; the file is truncated or damaged (it has not changed for a while)');
    }
  }
  return session;
}

function ageMs(path: string, now: number): number | null {
  try {
    return Math.max(0, now - statSync(path).mtimeMs);
  } catch {
    return null;
  }
}
