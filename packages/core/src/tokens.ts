/**
 * Local token estimates. Claude's tokenizer is not published for current models, so segment sizes
 * are estimates from UTF-8 length, later scaled per session against the provider-reported totals
 * (see analysis/calibrate). The divisor was fitted on the public transcripts in fixtures/ (Claude
 * Code 1.0.98–2.1.14, real usage): over 60 consecutive request pairs, the reported context grew by
 * one token per 3.02 bytes appended to the conversation (median 3.09), message overhead included.
 */
export const BYTES_PER_TOKEN = 3.0;

/** A fixed cost for images: the provider bills images by area, which the transcript does not carry. */
export const IMAGE_TOKENS = 1600;

export function estimateTokensFromBytes(bytes: number): number {
  if (bytes <= 0) return 0;
  return Math.max(1, Math.round(bytes / BYTES_PER_TOKEN));
}
