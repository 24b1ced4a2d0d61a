import { PROVABLE_CLASSES, isDeadClass, zeroByDeadClass, type DeadClass, type ReclaimSummary, type Segment } from '@glassbox/core';
import { TOMBSTONE_TOKENS_ESTIMATE } from './tombstone';

export function emptyByClass(): ReclaimSummary['byClass'] {
  return zeroByDeadClass(() => ({ tokens: 0, segments: 0 }));
}

/** What a fork with the given classes would remove: dead, unprotected payloads worth a tombstone. */
export function isReclaimable(s: Segment, classes: readonly DeadClass[]): boolean {
  return isDeadClass(s.class) && !s.protected && classes.includes(s.class) && s.evictableTokens > TOMBSTONE_TOKENS_ESTIMATE;
}

export function reclaimSummary(segments: readonly Segment[], classes: readonly DeadClass[] = PROVABLE_CLASSES): ReclaimSummary {
  const byClass = emptyByClass();
  let tokens = 0;
  let tombstoneTokens = 0;
  for (const s of segments) {
    if (!isDeadClass(s.class) || !isReclaimable(s, classes)) continue;
    byClass[s.class].tokens += s.evictableTokens;
    byClass[s.class].segments++;
    tokens += s.evictableTokens;
    tombstoneTokens += TOMBSTONE_TOKENS_ESTIMATE;
  }
  return { tokens, netTokens: tokens - tombstoneTokens, tombstoneTokens, byClass };
}
