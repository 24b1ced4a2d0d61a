import type { ParseOptions, ToolCall } from '@glassbox/core';
import { utf8Bytes } from './hash';
import { RolloutParser } from './parser';
import type { CodexSession } from './session-types';

/**
 * Parses rollout lines held in memory (no I/O), as the file reader would feed them. A pure read's
 * captured text is read back from its output's line when the analysis asks, as a file's session
 * reads it back from disk.
 */
export function parseRolloutLines(lines: readonly string[], options: ParseOptions): CodexSession {
  const parser = new RolloutParser({ path: options.path, fallbackId: options.fallbackId ?? '', keepCapturedText: options.keepCapturedText === true });
  let offset = 0;
  lines.forEach((text, i) => {
    const length = utf8Bytes(text);
    parser.push(text.endsWith('\r') ? text.slice(0, -1) : text, i + 1, offset, length);
    offset += length + 1;
  });
  const session = parser.finish(true);
  session.capturedTextOf = (call: ToolCall) => {
    const node = call.resultUuid ? session.nodes.get(call.resultUuid) : undefined;
    const text = node ? lines[node.line - 1] : undefined;
    return text === undefined ? null : parser.capturedTextFromOutputLine(call, text);
  };
  return session;
}
