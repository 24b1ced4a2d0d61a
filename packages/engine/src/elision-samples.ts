import { parseElided, type EvictionPlan } from '@glassbox/core';
import type { ElideOptions } from '@glassbox/analysis';

/** One elision as a fork of the session would write it: the fork builder's own cut of the session's text. */
export interface ElisionSample {
  segmentId: string;
  line: number;
  source: string;
  tokens: number;
  keptTokens: number;
  head: string;
  marker: string;
  tail: string;
  middleLines: number;
  /** The middle's characters as the marker shows them ("48.1k"). */
  middleChars: string;
  sha256Prefix: string;
}

/** What elision alone would do to a session at some thresholds. */
export interface ElisionSamples {
  elide: ElideOptions;
  results: number;
  tokens: number;
  netTokens: number;
  /** The largest `count`, largest first. */
  samples: ElisionSample[];
  /** Results over the threshold the fork cannot elide, and the first reason. */
  refused: number;
  refusedReason: string | null;
}

/**
 * The elisions of a plan made with `elided` alone, read back from the text the fork builder filled
 * in (head + marker line + tail): the preview shows exactly what a write would put in the fork.
 */
export function samplesOf(plan: EvictionPlan, elide: ElideOptions, count: number): ElisionSamples {
  const elided = plan.actions.filter((a) => a.class === 'elided');
  const samples: ElisionSample[] = [];
  for (const a of [...elided].sort((x, y) => y.tokensFreed - x.tokensFreed)) {
    if (samples.length >= count) break;
    const cut = parseElided(a.tombstone)[0];
    if (!cut) continue;
    const nl = a.tombstone.indexOf('\n', cut.head.length);
    samples.push({
      segmentId: a.segmentId,
      line: a.line,
      source: a.sourceLabel,
      tokens: a.tokensFreed,
      keptTokens: a.tombstoneTokens,
      head: cut.head,
      marker: a.tombstone.slice(cut.head.length, nl),
      tail: cut.tail,
      middleLines: cut.marker.lines,
      middleChars: cut.marker.charsShown,
      sha256Prefix: cut.marker.sha256Prefix,
    });
  }
  const refused = plan.excluded.filter((e) => e.class === 'elided' && e.reason === 'refused-by-fork');
  return {
    elide,
    results: elided.length,
    tokens: elided.reduce((n, a) => n + a.tokensFreed, 0),
    netTokens: elided.reduce((n, a) => n + a.tokensFreed - a.tombstoneTokens, 0),
    samples,
    refused: refused.length,
    refusedReason: refused[0]?.message ?? null,
  };
}
