import { estimateTokensFromBytes } from '@glassbox/core';

/**
 * Claude's tokenizer is not published for current models. This divisor was fitted on the public
 * transcripts in fixtures/ (Claude Code 1.0.98–2.1.14, real usage): over 60 consecutive request pairs,
 * the reported context grew by one token per 3.02 bytes appended to the conversation (median 3.09),
 * message overhead included.
 */
export const CLAUDE_BYTES_PER_TOKEN = 3.0;

export function tokensOf(bytes: number): number {
  return estimateTokensFromBytes(bytes, CLAUDE_BYTES_PER_TOKEN);
}
