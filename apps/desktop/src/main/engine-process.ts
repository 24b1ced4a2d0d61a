// The engine (index, watcher, analysis, fork) in an Electron utility process, so the window and main
// never wait on SQLite or parsing. Main forwards validated requests; results and push events come back.
import { createHost } from '@glassbox/host';
import type { EventChannel, EventMap } from '@glassbox/contract';

interface Request {
  id: number;
  channel: string;
  args: unknown;
}

interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!port) throw new Error('engine-process must run as an Electron utility process');

const env = process.env;
// The worker threads run the entries built beside this file (electron.vite.config.ts), so this process
// answers the window while the index reads files and a big session opens or forks.
const host = createHost(
  env,
  {
    mode: 'electron',
    ...(env['GLASSBOX_USER_DATA'] ? { dataDir: env['GLASSBOX_USER_DATA'] } : {}),
    work: { threads: 2, workerUrl: new URL('./work-worker.js', import.meta.url) },
  },
  (notice) => port.postMessage({ notice }),
  { workerUrl: new URL('./index-worker.js', import.meta.url), ...(env['GLASSBOX_SQLITE_BINDING'] ? { nativeBinding: env['GLASSBOX_SQLITE_BINDING'] } : {}) },
);
host.onEvent(<E extends EventChannel>(event: E, payload: EventMap[E]) => port.postMessage({ event, payload }));
port.on('message', (e) => {
  const req = e.data as Request;
  // Big values come as RawJson (UTF-8 bytes to copy, not an object graph); the preload parses them.
  void host.handleWire(req.channel, req.args).then((result) => port.postMessage({ id: req.id, result }));
});
void host.start();
