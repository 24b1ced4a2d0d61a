import { estimateTokensFromBytes } from '@glassbox/core';

/**
 * OpenAI's tokenizers for current models are not published either, and the Codex corpus is too small
 * to fit a figure of its own: this starts from the same 3 bytes per token as Claude Code's (JSON and
 * code weigh alike in both), and the analysis scales every session's estimates against the usage each
 * request reported (token_count), which is what the figures shown rest on.
 */
export const CODEX_BYTES_PER_TOKEN = 3.0;

export function tokensOf(bytes: number): number {
  return estimateTokensFromBytes(bytes, CODEX_BYTES_PER_TOKEN);
}
