/**
 * Local token estimates. Claude's tokenizer is not published for current models, so segment sizes
 * are estimates from UTF-8 length, later scaled per session against the provider-reported totals
 * (see analysis/calibrate). The divisor was fitted on the public corpus transcripts: the growth of
 * reported input between consecutive requests against the bytes appended to the conversation.
 */
export const BYTES_PER_TOKEN = 3.6;

/** A fixed cost for images: the provider bills images by area, which the transcript does not carry. */
export const IMAGE_TOKENS = 1600;

export function estimateTokensFromBytes(bytes: number): number {
  if (bytes <= 0) return 0;
  return Math.max(1, Math.round(bytes / BYTES_PER_TOKEN));
}
