import type { ForkPrepared, ValidationReport } from '@glassbox/core';
import { forkPass } from './fork-pass';
import { planAndIndex, type FilePlan, type FilePlanOptions } from './plan-lines';

export { PREVIEW_SESSION_ID } from './plan-lines';

export interface ForkPreview {
  planned: FilePlan;
  /** Null when the plan is empty: there is no fork to build. */
  fork: ForkPrepared | null;
  report: ValidationReport | null;
}

/**
 * Plans from the file as it would be forked, builds the fork line by line and validates it, writing
 * nothing: what a preview (dry run, fork wizard, benchmark) shows is what a write would produce. The
 * file is streamed (the plan's parse, the builder's index pass, one transform-and-validate pass).
 */
export function previewFork(path: string, options: FilePlanOptions): ForkPreview {
  const { planned, format } = planAndIndex(path, options);
  const fork = planned.fork;
  if (!fork || !planned.indexed || fork.applied.length === 0) return { planned, fork, report: null };
  const { report } = forkPass(format, path, planned.indexed, { original: planned.session, ...(options.job ? { job: options.job } : {}) });
  return { planned, fork, report };
}
