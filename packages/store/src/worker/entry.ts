// The worker thread's code, bundled to one plain script by worker-source.ts: no TypeScript loader runs
// inside the worker (one costs ~1 s of CPU per worker for its own hooks thread).
import { parentPort } from 'node:worker_threads';
import { defaultAgents } from '@glassbox/agents';
import { runJob, type Job } from '../worker-main';

// Jobs cross into the thread as plain data, so the thread takes its agents from the composition root.
const agents = defaultAgents();

parentPort?.on('message', (msg: { id: number; job: Job }) => {
  let result: unknown;
  try {
    result = runJob(msg.job, agents);
  } catch (error) {
    result = { ok: false, code: null, message: String((error as Error)?.message ?? error) };
  }
  parentPort?.postMessage({ id: msg.id, result });
});
