import { buildFork, validateFork, type ForkResult, type ValidationReport } from '@glassbox/adapter-claude-code';
import { planFromLines, type LinesPlan, type PlanLinesOptions } from './plan-lines';

/** The id a preview fork carries: it is never written, so any fixed new id does. */
export const PREVIEW_SESSION_ID = '00000000-0000-4000-8000-000000000000';

export interface ForkPreview {
  planned: LinesPlan;
  /** Null when the plan is empty: there is no fork to build. */
  fork: ForkResult | null;
  report: ValidationReport | null;
}

/**
 * Plans from the exact lines that would be forked, builds the fork in memory and validates it: what
 * a preview (dry run, fork wizard, benchmark) shows is what a write would produce. Writes nothing.
 */
export function previewFork(path: string, lines: readonly string[], options: PlanLinesOptions = {}): ForkPreview {
  const planned = planFromLines(path, lines, options);
  if (planned.actions.length === 0) return { planned, fork: null, report: null };
  const fork = buildFork(lines, planned.actions, PREVIEW_SESSION_ID);
  const report = validateFork(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
  return { planned, fork, report };
}
