import type { ForkResult, ValidationReport } from '@glassbox/core';
import { validateFork } from '@glassbox/adapter-claude-code';
import { planFromLines, type LinesPlan, type PlanLinesOptions } from './plan-lines';

export { PREVIEW_SESSION_ID } from './plan-lines';

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
  const fork = planned.fork;
  if (!fork || fork.applied.length === 0) return { planned, fork, report: null };
  const report = validateFork(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
  return { planned, fork, report };
}
