import type { ParseOptions } from '@glassbox/core';
import { byteLength } from './hash';
import { GeminiParser, type GeminiSession } from './parser';

/** Parses lines held in memory, as the streaming reader would feed them (offsets from UTF-8 lengths). */
export function parseChatLines(lines: readonly string[], options: ParseOptions): GeminiSession {
  const parser = new GeminiParser({ ...options, keepCapturedText: options.keepCapturedText ?? true });
  let offset = 0;
  lines.forEach((text, i) => {
    const n = byteLength(text);
    parser.push(text, i + 1, offset, n);
    offset += n + 1;
  });
  return parser.finish(true);
}
