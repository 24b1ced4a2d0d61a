// The index's thread entry when esbuild cannot bundle entry.ts: module hooks registered in the main
// thread do not reach a thread, so it registers the TypeScript loader itself.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { answerJob } = await import('../pool.ts');
const { serveThread } = await import('../../shared/threads.ts');
const { defaultAgents } = await import('@glassbox/agents');
const agents = defaultAgents();
serveThread(parentPort, workerData, (job) => answerJob(job, agents));
