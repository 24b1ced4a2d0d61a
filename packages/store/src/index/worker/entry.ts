// The index's thread entry, bundled to one plain script by worker-source.ts: no TypeScript loader runs
// inside the thread (one costs ~1 s of CPU per thread for its own hooks thread).
import { parentPort, workerData } from 'node:worker_threads';
import { defaultAgents } from '@glassbox/agents';
import { answerJob } from '../pool';
import { serveThread, type ThreadData } from '../../shared/threads';
import type { Job } from '../worker-main';

// Jobs cross into the thread as plain data, so the thread takes its agents from the composition root.
const agents = defaultAgents();

if (parentPort) serveThread<Job>(parentPort, workerData as ThreadData, (job) => answerJob(job, agents));
