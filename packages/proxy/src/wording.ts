import { formatTombstone, type DeadProof, type Segment } from '@glassbox/core';
import { removedWhat } from '@glassbox/analysis';

/**
 * The tombstone a request carries in place of a dead payload. Glassbox's one tombstone format
 * (core's tombstone-format: what, why, the archive hash), worded for a conversation rather than a
 * transcript: a fork's "on line 88" would mean nothing to the model, so the proof says what kind of
 * later item makes this one dead. Decided once per payload and then repeated byte for byte.
 */
export function requestTombstone(seg: Segment, proof: DeadProof, sha256: string): string {
  return formatTombstone(removedWhat(seg), why(proof, seg.source.label), sha256);
}

function why(proof: DeadProof, label: string): string {
  switch (proof.class) {
    case 'gone':
      return `gone: ${label} no longer exists`;
    case 'stale-drift':
      return `stale-drift: the file changed since this read (${proof.range.full ? 'whole file' : `lines ${proof.range.startLine}-${proof.range.endLine}`}); read it again if needed`;
    case 'stale-superseded':
      return proof.by.kind === 'write' ? 'stale-superseded: a later Write replaced the whole file' : 'stale-superseded: a later read in this conversation covers it';
    case 'duplicate':
      return 'duplicate: an identical copy comes later in this conversation';
    case 'spent':
      return `spent (inferred): ${proof.reason}`;
    case 'elided':
      return `elided (lossy, recoverable): ${proof.reason}`;
  }
}
