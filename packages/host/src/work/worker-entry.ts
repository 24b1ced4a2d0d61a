// A work thread of the host (see pool.ts): parses and analyses sessions and plans, writes and checks
// forks, with its own adapters from the composition root. Requests come with a slot in a shared
// array: the host sets it to 1 to cancel the request, and the work stops at its next check.
import { parentPort, workerData } from 'node:worker_threads';
import { defaultAgents } from '@glassbox/agents';
import { defaultEngine } from '../engine-default';
import { WorkHandler } from './handler';
import { runRequest } from './run';
import type { WorkRequest } from './protocol';

const flags = new Int32Array((workerData as { flags: SharedArrayBuffer }).flags);
const agents = defaultAgents();
const handler = new WorkHandler(agents, defaultEngine(agents));

parentPort?.on('message', (msg: { id: number; slot: number; request: WorkRequest }) => {
  const port = parentPort;
  if (!port) return;
  const answer = runRequest(handler, msg.request, () => Atomics.load(flags, msg.slot) === 1, (progress) => port.postMessage({ id: msg.id, progress }));
  port.postMessage({ id: msg.id, ...answer });
});
