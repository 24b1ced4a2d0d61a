import './native-hash';
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { ioProblem, scanLines } from '@glassbox/file-io';
import type { ToolCall } from '@glassbox/core';
import { RolloutParser, type CodexSession } from '../parser';
import { sessionIdFromFileName } from '../discover-names';

/**
 * Parses a rollout from disk, streaming (read-only; never held whole). Captured text of pure reads
 * is not kept; `capturedTextOf` reads it back from the output's line when the analysis asks.
 */
export function readRolloutFile(path: string, options: { keepCapturedText?: boolean } = {}): CodexSession {
  const parser = new RolloutParser({ path, fallbackId: sessionIdFromFileName(basename(path)) ?? '', keepCapturedText: options.keepCapturedText === true });
  let endsWithNewline: boolean;
  try {
    endsWithNewline = scanLines(path, (text, line, offset, length) => parser.push(text, line, offset, length)).endsWithNewline;
  } catch (error) {
    const session = parser.finish(true);
    session.problems.unshift(ioProblem(path, error));
    return session;
  }
  return withCapturedText(path, parser, parser.finish(endsWithNewline));
}

/** `session` (what `parser` finished) reads a read's captured text back from its output's line in the file. */
export function withCapturedText(path: string, parser: RolloutParser, session: CodexSession): CodexSession {
  session.capturedTextOf = (call: ToolCall) => {
    const node = call.resultUuid ? session.nodes.get(call.resultUuid) : undefined;
    if (!node) return null;
    const text = readSlice(path, node.offset, node.length);
    return text === null ? null : parser.capturedTextFromOutputLine(call, text);
  };
  return session;
}

function readSlice(path: string, offset: number, length: number): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, offset);
    return buf.toString('utf8', 0, n);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
