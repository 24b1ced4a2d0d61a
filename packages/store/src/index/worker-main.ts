import type { AgentRegistry } from '@glassbox/core';
import { runSummarize, type SummarizeJob, type SummarizeResult } from './jobs';
import { runAnalyze, type AnalyzeJob, type AnalyzeResult } from './analyze-job';
import { runIndex, type IndexJob, type IndexResult } from './index-job';

export type Job = SummarizeJob | AnalyzeJob | IndexJob;
export type JobResult<J extends Job> = J extends SummarizeJob ? SummarizeResult : J extends IndexJob ? IndexResult : AnalyzeResult;

/** Runs one job with these agents: the same code in a worker thread (its entry builds them) and inline (the index's own). */
export function runJob(job: Job, agents: AgentRegistry): SummarizeResult | AnalyzeResult | IndexResult {
  if (job.type === 'index') return runIndex(job, agents);
  return job.type === 'summarize' ? runSummarize(job, agents.byId(job.agent).format) : runAnalyze(job, agents.byId(job.agent).locator);
}
