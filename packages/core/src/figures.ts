import type { ClassifiedSnapshot } from './snapshot';

/**
 * The figures every view shows for a session — the list, the window's header, the fork wizard and
 * `inspect` — from one definition, so they agree for the same session and folder mapping.
 */
export interface WindowFigures {
  /** The window: provider-reported total of the last request, estimated when none was reported. */
  windowTokens: number;
  windowReported: boolean;
  /** What the default fork removes net of its tombstones. */
  reclaimableTokens: number;
  /** reclaimableTokens / windowTokens, 0..1. */
  deadShare: number;
}

export function deadShare(reclaimableTokens: number, windowTokens: number): number {
  return windowTokens > 0 ? Math.min(1, Math.max(0, reclaimableTokens / windowTokens)) : 0;
}

export function windowFigures(snapshot: ClassifiedSnapshot): WindowFigures {
  const c = snapshot.context;
  const windowTokens = c.reportedTokens ?? c.estimatedTokens;
  const reclaimableTokens = Math.max(0, snapshot.reclaimable.netTokens);
  return { windowTokens, windowReported: c.reportedTokens !== null, reclaimableTokens, deadShare: deadShare(reclaimableTokens, windowTokens) };
}
