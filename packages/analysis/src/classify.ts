import { CLASS_REGISTRY, type Segment, type Session } from '@glassbox/core';
import type { AnalysisPorts } from './ports';
import { RULES_BY_STAGE, ruleContext } from './rules';
import type { ElideOptions } from './rules/elided';

export interface ClassifyOptions {
  /** The folder the session's working directory is mapped to (a moved checkout); null to check the cwd itself. */
  repoRoot: string | null;
  /** Also run the rules of inferred classes (spent). */
  withInferred: boolean;
  /** Also run the elided rule, with these thresholds (null: not asked for). */
  elide: ElideOptions | null;
  /** Number of most recent API exchanges that are never evicted. */
  protectTail: number;
}

export interface ClassifyResult {
  repoExists: boolean;
  repoPath: string | null;
}

/**
 * Gives each segment its class and proof, in place: the rules of packages/analysis/src/rules run in
 * stage order and a segment keeps the first class it gets; anything without a proof stays live.
 * Inferred classes run only when asked for.
 */
export function classifySegments(
  session: Session,
  segments: Segment[],
  exchanges: number[],
  ports: AnalysisPorts,
  options: ClassifyOptions,
): ClassifyResult {
  markProtected(segments, exchanges, options.protectTail);
  const ctx = ruleContext(session, segments, ports, { repoRoot: options.repoRoot, elide: options.elide });
  for (const rule of RULES_BY_STAGE) {
    // Each inferred class runs only when asked for: spent with withInferred, elided with its thresholds.
    if (rule.class === 'elided' ? options.elide === null : CLASS_REGISTRY[rule.class].evidence === 'inferred' && !options.withInferred) continue;
    rule.apply(ctx);
  }
  return { repoExists: ctx.repoExists, repoPath: options.repoRoot ?? session.cwd };
}

/** Segments in the last exchanges, and kinds that are never evicted, are protected. */
function markProtected(segments: Segment[], exchanges: number[], protectTail: number): void {
  const last = exchanges.reduce((m, e) => (e > m ? e : m), 0);
  const cut = last - Math.max(0, protectTail);
  segments.forEach((s, i) => {
    const ex = exchanges[i] ?? 0;
    const never =
      s.isError === true ||
      s.kind === 'prompt' ||
      s.kind === 'assistant-text' ||
      s.kind === 'thinking' ||
      s.kind === 'compact-summary' ||
      s.kind === 'meta' ||
      s.kind === 'attachment' ||
      s.kind === 'image' ||
      s.kind === 'other';
    s.protected = never || ex > cut;
  });
}
export { comparableText, sliceRange } from './rules';
