// A work thread of the host (see pool.ts): parses and analyses sessions and plans, writes and checks
// forks, with its own adapters from the composition root. Requests come with a slot in a shared
// array: the host sets it to 1 to cancel the request, and the work stops at its next check.
import { parentPort, workerData } from 'node:worker_threads';
import { defaultAgents } from '@glassbox/agents';
import { hostGlassbox } from '../glassbox';
import { WorkHandler } from './handler';
import { runRequest } from './run';
import type { WorkRequest } from './protocol';

const data = workerData as { flags: SharedArrayBuffer; dataDir: string };
const flags = new Int32Array(data.flags);
const agents = defaultAgents();
const handler = new WorkHandler(agents, hostGlassbox(agents, data.dataDir));

parentPort?.on('message', (msg: { id: number; slot: number; request: WorkRequest }) => {
  const port = parentPort;
  if (!port) return;
  const answer = runRequest(handler, msg.request, () => Atomics.load(flags, msg.slot) === 1, (progress) => port.postMessage({ id: msg.id, progress }));
  port.postMessage({ id: msg.id, ...answer }, bytesOf(answer));
});

/** The buffers of the big byte values of an answer (a window's JSON): moved to the host, not copied. */
function bytesOf(value: unknown, depth = 0): ArrayBuffer[] {
  if (value instanceof Uint8Array) {
    const own = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && value.buffer instanceof ArrayBuffer;
    return own && value.byteLength >= 1 << 16 ? [value.buffer as ArrayBuffer] : [];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 3) return [];
  return Object.values(value).flatMap((v) => bytesOf(v, depth + 1));
}
