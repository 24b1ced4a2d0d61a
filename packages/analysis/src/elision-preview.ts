import type { ClassifiedSnapshot, Segment, Session } from '@glassbox/core';
import { elidable, type ElideOptions } from './rules/elided';
import { elisionTokens } from './tombstone';

/** What elision would do to a window classified without it: the results it would shorten, and the tokens. */
export interface ElisionPreview {
  overTokens: number;
  keepChars: number;
  results: number;
  /** The tokens of those results. */
  tokens: number;
  /** What their heads, markers and tails keep (an estimate until a fork cuts them). */
  keptTokens: number;
  netTokens: number;
  /** The largest few, for a preview. */
  largest: { segmentId: string; line: number; source: string; tokens: number }[];
}

/**
 * Elision's figures for a snapshot analysed without it, by the rule's own test on the segments still
 * live: no second classification, and the snapshot's own figures (which never count elision) stay as they are.
 */
export function elisionPreview(snapshot: ClassifiedSnapshot, session: Session, o: ElideOptions): ElisionPreview {
  const chosen: Segment[] = snapshot.segments.filter((s) => elidable(s, session, o));
  let tokens = 0;
  let kept = 0;
  const proof = { class: 'elided' as const, inferred: true as const, recoverable: true as const, overTokens: o.overTokens, keep: o.keep, reason: '' };
  for (const s of chosen) {
    tokens += s.evictableTokens;
    kept += elisionTokens(s, proof, snapshot.context.bytesPerToken);
  }
  const largest = [...chosen]
    .sort((a, b) => b.evictableTokens - a.evictableTokens)
    .slice(0, 3)
    .map((s) => ({ segmentId: s.id, line: s.line, source: s.source.label, tokens: s.evictableTokens }));
  return { overTokens: o.overTokens, keepChars: o.keep.chars, results: chosen.length, tokens, keptTokens: kept, netTokens: tokens - kept, largest };
}
