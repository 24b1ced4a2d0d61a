import { defaultAgents } from '@glassbox/agents';
import { runSummarize, type SummarizeJob, type SummarizeResult } from './jobs';
import { runAnalyze, type AnalyzeJob, type AnalyzeResult } from './analyze-job';

export type Job = SummarizeJob | AnalyzeJob;
export type JobResult<J extends Job> = J extends SummarizeJob ? SummarizeResult : AnalyzeResult;

// Jobs cross into worker threads as plain data, so the workers take their adapters from the
// composition root themselves.
const agents = defaultAgents();

/** Runs one job: the same code in a worker thread and inline. */
export function runJob(job: Job): SummarizeResult | AnalyzeResult {
  return job.type === 'summarize' ? runSummarize(job, agents.byId(job.agent).format) : runAnalyze(job, agents.byId(job.agent).locator);
}
