import { PROVABLE_CLASSES, type DeadClass, type ReclaimSummary, type Segment } from '@glassbox/core';
import { TOMBSTONE_TOKENS_ESTIMATE } from './tombstone';

export function emptyByClass(): ReclaimSummary['byClass'] {
  return {
    gone: { tokens: 0, segments: 0 },
    'stale-drift': { tokens: 0, segments: 0 },
    'stale-superseded': { tokens: 0, segments: 0 },
    duplicate: { tokens: 0, segments: 0 },
    spent: { tokens: 0, segments: 0 },
  };
}

/** What a fork with the given classes would remove: dead, unprotected payloads worth a tombstone. */
export function isReclaimable(s: Segment, classes: readonly DeadClass[]): boolean {
  return s.class !== 'live' && !s.protected && classes.includes(s.class) && s.evictableTokens > TOMBSTONE_TOKENS_ESTIMATE;
}

export function reclaimSummary(segments: readonly Segment[], classes: readonly DeadClass[] = PROVABLE_CLASSES): ReclaimSummary {
  const byClass = emptyByClass();
  let tokens = 0;
  let tombstoneTokens = 0;
  for (const s of segments) {
    if (s.class === 'live' || !isReclaimable(s, classes)) continue;
    byClass[s.class].tokens += s.evictableTokens;
    byClass[s.class].segments++;
    tokens += s.evictableTokens;
    tombstoneTokens += TOMBSTONE_TOKENS_ESTIMATE;
  }
  return { tokens, netTokens: tokens - tombstoneTokens, tombstoneTokens, byClass };
}
