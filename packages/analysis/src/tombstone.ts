import { ELISION_PENDING, deathReason, estimateTokensFromBytes, formatTombstone, type DeadProof, type Segment } from '@glassbox/core';

export { deathReason };

/** What a typical tombstone costs; payloads at or below this are never worth replacing. */
export const TOMBSTONE_TOKENS_ESTIMATE = 40;

function rangeText(r: { startLine: number; endLine: number; full: boolean }): string {
  return r.full ? 'whole file' : `lines ${r.startLine}-${r.endLine}`;
}

/** What was removed: the tool, its source, and the range for reads. */
export function removedWhat(seg: Segment): string {
  const src = seg.source.label;
  if (seg.kind === 'tool-input') return `the ${seg.toolName ?? 'tool'} input for ${src}`;
  if (seg.source.type === 'file' && seg.opKind === 'read') {
    return seg.proof && 'range' in seg.proof ? `a read of ${src} ${rangeText(seg.proof.range)}` : `a read of ${src}`;
  }
  if (seg.source.type === 'file') return `the ${seg.toolName} result for ${src}`;
  return `the ${seg.toolName ?? seg.source.type} output of ${src}`;
}

/**
 * The short text that replaces a dead payload: what, why, and the archive hash to get it back, e.g.
 * `[glassbox: removed a read of src/app.ts lines 1-240 (stale-superseded: the later read on line 88 at 14:02 covers it); sha256 3f2a9c01d4e5]`.
 * The format is Glassbox's own (core's tombstone-format), so a fork's tombstones are recognised as such.
 */
export function tombstoneText(seg: Segment, proof: DeadProof, archiveSha256: string): string {
  // An elision is cut from the payload's own text, which only the fork sees: it fills this in.
  if (proof.class === 'elided') return ELISION_PENDING;
  return formatTombstone(removedWhat(seg), deathReason(proof, seg.source.label), archiveSha256);
}

/** A tombstone written before its hash is known still gets one (12 hex digits): count it. */
const HASH_TO_COME = /sha256 \]$/;

export function tombstoneTokens(text: string, bytesPerToken: number): number {
  return estimateTokensFromBytes(text.length + (HASH_TO_COME.test(text) ? 12 : 0), bytesPerToken);
}

/** The tokens a segment's tombstone will cost, as the plan will write it. */
export function tombstoneTokensFor(seg: Segment, proof: DeadProof, bytesPerToken: number): number {
  if (proof.class === 'elided') return elisionTokens(seg, proof, bytesPerToken);
  return tombstoneTokens(tombstoneText(seg, proof, seg.hash ?? ''), bytesPerToken);
}

/** The marker line, as long as the longest one Glassbox writes. */
const MARKER_BYTES = 100;

/**
 * What an elision keeps, before the fork cuts it: both ends at their most (never more than the
 * payload) and the marker. The fork reports the exact figure from the text it writes.
 */
export function elisionTokens(seg: Segment, proof: DeadProof & { class: 'elided' }, bytesPerToken: number): number {
  const kept = Math.min(seg.bytes, 2 * proof.keep.chars) + MARKER_BYTES;
  // At the segment's own (calibrated) tokens per byte.
  if (seg.bytes <= 0) return estimateTokensFromBytes(kept, bytesPerToken);
  return Math.min(seg.evictableTokens, Math.ceil((kept * seg.evictableTokens) / seg.bytes));
}
