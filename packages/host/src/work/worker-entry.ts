// A work thread of the host (see pool.ts): parses and analyses sessions and plans, writes and checks
// forks, with its own adapters from the composition root. Requests come with a slot in a shared
// array: the host sets it to 1 to cancel the request, and the work stops at its next check.
import { parentPort, workerData } from 'node:worker_threads';
import { serveThread, type ThreadData } from '@glassbox/store';
import { defaultAgents } from '@glassbox/agents';
import { hostGlassbox } from '../glassbox';
import { WorkHandler } from './handler';
import { runRequest } from './run';
import type { WorkRequest } from './protocol';

const data = workerData as ThreadData & { dataDir: string; follow?: boolean };
const agents = defaultAgents();
const handler = new WorkHandler(agents, hostGlassbox(agents, data.dataDir), { follow: data.follow !== false });

if (parentPort) {
  serveThread<WorkRequest>(
    parentPort,
    data,
    (request, ctx) => runRequest(handler, request, () => ctx.cancelled(), (p) => ctx.progress(p.stage, p.done, p.total)),
    (answer) => bytesOf(answer),
  );
}

/** The buffers of the big byte values of an answer (a window's JSON): moved to the host, not copied. */
function bytesOf(value: unknown, depth = 0): ArrayBuffer[] {
  if (value instanceof Uint8Array) {
    const own = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && value.buffer instanceof ArrayBuffer;
    return own && value.byteLength >= 1 << 16 ? [value.buffer as ArrayBuffer] : [];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 3) return [];
  return Object.values(value).flatMap((v) => bytesOf(v, depth + 1));
}
