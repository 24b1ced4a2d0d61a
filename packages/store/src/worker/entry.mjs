// Worker-thread entry of the index's pool. Module hooks registered in the main thread do not reach a
// worker, so it registers the TypeScript loader itself. The analysis code (the bigger part) is loaded
// on the first analysis job only, so workers start fast for summaries.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { runSummarize } = await import('../jobs.ts');
const { defaultAgents } = await import('@glassbox/agents');
const agents = defaultAgents();
let runAnalyze = null;
parentPort.on('message', async (msg) => {
  let result;
  try {
    if (msg.job.type === 'summarize') result = runSummarize(msg.job, agents.byId(msg.job.agent).format);
    else {
      runAnalyze ??= (await import('../analyze-job.ts')).runAnalyze;
      result = runAnalyze(msg.job, agents.byId(msg.job.agent).locator);
    }
  } catch (error) {
    result = { ok: false, code: null, message: String(error?.message ?? error) };
  }
  parentPort.postMessage({ id: msg.id, result });
});
