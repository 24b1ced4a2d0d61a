import { DEFAULT_ELIDE_KEEP, DEFAULT_ELIDE_OVER, type ElisionKeep } from '@glassbox/core';
import type { Segment, Session } from '@glassbox/core';
import type { ClassRule } from './rule';

/** The elided rule's thresholds: results above `overTokens` keep `keep` of each end in a fork. */
export interface ElideOptions {
  overTokens: number;
  keep: ElisionKeep;
}

export const DEFAULT_ELIDE_OPTIONS: ElideOptions = { overTokens: DEFAULT_ELIDE_OVER, keep: DEFAULT_ELIDE_KEEP };

/**
 * What elision never shortens: the result of a write or an edit (the model's own confirmation of a
 * change), and a subagent's report (its conclusion, not a log).
 */
const NEVER: ReadonlySet<string> = new Set(['write', 'edit', 'subagent']);

/**
 * elided (lossy, recoverable; inferred, never proven): a tool result larger than the threshold and
 * older than the protected tail, not an error, not a write's or an edit's, and not already dead by a
 * proven class (those rules run first, and a segment keeps its first class). A fork keeps its first
 * and last lines verbatim and archives the middle. Runs only when asked for.
 */
export const elidedRule: ClassRule<'elided'> = {
  class: 'elided',
  stage: 60,
  apply(ctx) {
    const o = ctx.elide;
    if (!o) return;
    for (const s of ctx.segments) {
      if (!elidable(s, ctx.session, o)) continue;
      ctx.mark(s, 'elided', {
        inferred: true,
        recoverable: true,
        overTokens: o.overTokens,
        keep: { ...o.keep },
        reason: `a ${s.evictableTokens.toLocaleString('en-US')}-token result older than the protected tail keeps its first and last lines; the middle is archived and can be recalled`,
      });
    }
  },
};

/** The rule's test for one segment (still live: no other class claimed it). */
export function elidable(s: Segment, session: Session, o: ElideOptions): boolean {
  if (s.class !== 'live' || s.protected || s.isError || s.kind !== 'tool-result') return false;
  if (s.evictableTokens <= o.overTokens) return false;
  if (!s.toolUseId || !session.toolCalls.has(s.toolUseId)) return false;
  return s.opKind === undefined || !NEVER.has(s.opKind);
}
