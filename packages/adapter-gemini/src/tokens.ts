import { estimateTokensFromBytes } from '@glassbox/core';

/**
 * Google documents a Gemini token as about four characters of English text; the sessions here are
 * mostly code and JSON-ish tool output, for which that is a fair start. The analysis scales every
 * session's estimates against the prompt tokens each reply reported, which is what the figures rest on.
 */
export const GEMINI_BYTES_PER_TOKEN = 4.0;

export function tokensOf(bytes: number): number {
  return estimateTokensFromBytes(bytes, GEMINI_BYTES_PER_TOKEN);
}
