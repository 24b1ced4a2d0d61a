import { PROVABLE_CLASSES, isDeadClass, zeroByDeadClass, type DeadClass, type DeadProof, type ReclaimSummary, type Segment } from '@glassbox/core';
import { TOMBSTONE_TOKENS_ESTIMATE, tombstoneTokensFor } from './tombstone';

function emptyByClass(): ReclaimSummary['byClass'] {
  return zeroByDeadClass(() => ({ tokens: 0, segments: 0 }));
}

/**
 * What a fork with the given classes would remove: dead, unprotected payloads with a proof, bigger
 * than a typical tombstone and than their own (the same test the plan applies).
 */
export function isReclaimable(s: Segment, classes: readonly DeadClass[], bytesPerToken: number): boolean {
  if (!isDeadClass(s.class) || s.protected || !classes.includes(s.class) || s.evictableTokens <= TOMBSTONE_TOKENS_ESTIMATE) return false;
  if (!s.proof || s.proof.class !== s.class) return false;
  return tombstoneTokensFor(s, s.proof as DeadProof, bytesPerToken) < s.evictableTokens;
}

/**
 * The reclaimable figure every view shows: what the default plan removes, and what its tombstones
 * cost (the tombstones as the plan will write them), before the fork's minimum-savings threshold.
 */
export function reclaimSummary(segments: readonly Segment[], bytesPerToken: number, classes: readonly DeadClass[] = PROVABLE_CLASSES): ReclaimSummary {
  const byClass = emptyByClass();
  let tokens = 0;
  let tombstoneTokens = 0;
  for (const s of segments) {
    if (!isDeadClass(s.class) || !isReclaimable(s, classes, bytesPerToken)) continue;
    byClass[s.class].tokens += s.evictableTokens;
    byClass[s.class].segments++;
    tokens += s.evictableTokens;
    tombstoneTokens += tombstoneTokensFor(s, s.proof as DeadProof, bytesPerToken);
  }
  return { tokens, netTokens: tokens - tombstoneTokens, tombstoneTokens, byClass };
}
