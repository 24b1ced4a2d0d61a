/**
 * Local token estimates from UTF-8 length. Providers do not publish their current tokenizers, so each
 * agent's adapter fits its own bytes-per-token figure (Session.bytesPerToken) and the analysis scales
 * segment estimates per session against the provider-reported totals (analysis/calibrate).
 */
export function estimateTokensFromBytes(bytes: number, bytesPerToken: number): number {
  if (bytes <= 0) return 0;
  return Math.max(1, Math.round(bytes / bytesPerToken));
}

/** A fixed cost for images: providers bill images by area, which transcripts do not carry. */
export const IMAGE_TOKENS = 1600;
