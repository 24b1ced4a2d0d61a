import { estimateTokensFromBytes, type Proof, type Segment } from '@glassbox/core';

/** What a typical tombstone costs; payloads at or below this are never worth replacing. */
export const TOMBSTONE_TOKENS_ESTIMATE = 40;

function rangeText(r: { startLine: number; endLine: number; full: boolean }): string {
  return r.full ? 'whole file' : `lines ${r.startLine}-${r.endLine}`;
}

function when(ts: string | undefined): string {
  if (!ts) return '';
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? '' : ` at ${d.toISOString().slice(11, 16)}`;
}

/** Why the payload is dead, in one clause a model can act on. */
export function deathReason(proof: Proof, label?: string): string {
  switch (proof.class) {
    case 'gone':
      return `gone: ${label ?? proof.path} no longer exists`;
    case 'stale-drift':
      return `stale-drift: the file changed since this read (${rangeText(proof.range)}); read it again if needed`;
    case 'stale-superseded':
      return proof.by.kind === 'write'
        ? `stale-superseded: the Write on line ${proof.by.line}${when(proof.by.timestamp)} replaced the whole file`
        : `stale-superseded: the later read on line ${proof.by.line}${when(proof.by.timestamp)} covers it`;
    case 'duplicate':
      return `duplicate: an identical copy is kept on line ${proof.kept.line}`;
    case 'spent':
      return `spent (inferred): ${proof.reason}`;
  }
}

/** What was removed: the tool, its source, and the range for reads. */
export function removedWhat(seg: Segment): string {
  const src = seg.source.label;
  if (seg.kind === 'tool-input') return `the ${seg.toolName ?? 'tool'} input for ${src}`;
  const isRead = seg.toolName === undefined || seg.toolName === 'Read';
  if (seg.source.type === 'file' && isRead) {
    return seg.proof && 'range' in seg.proof ? `a read of ${src} ${rangeText(seg.proof.range)}` : `a read of ${src}`;
  }
  if (seg.source.type === 'file') return `the ${seg.toolName} result for ${src}`;
  return `the ${seg.toolName ?? seg.source.type} output of ${src}`;
}

/**
 * The short text that replaces a dead payload: what, why, and the archive hash to get it back, e.g.
 * `[glassbox: removed a read of src/app.ts lines 1-240 (stale-superseded: the later read on line 88 at 14:02 covers it); sha256 3f2a9c01d4e5]`.
 */
export function tombstoneText(seg: Segment, proof: Proof, archiveSha256: string): string {
  return `[glassbox: removed ${removedWhat(seg)} (${deathReason(proof, seg.source.label)}); sha256 ${archiveSha256.slice(0, 12)}]`;
}

export function tombstoneTokens(text: string): number {
  return estimateTokensFromBytes(text.length);
}
