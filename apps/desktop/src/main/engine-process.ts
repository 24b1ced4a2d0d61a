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
const host = createHost(
  env,
  { mode: 'electron', ...(env['GLASSBOX_USER_DATA'] ? { dataDir: env['GLASSBOX_USER_DATA'] } : {}) },
  (notice) => port.postMessage({ notice }),
  // Worker threads cannot find their entry inside the bundle; this process is already off the UI thread.
  { workers: 0, ...(env['GLASSBOX_SQLITE_BINDING'] ? { nativeBinding: env['GLASSBOX_SQLITE_BINDING'] } : {}) },
);
host.onEvent(<E extends EventChannel>(event: E, payload: EventMap[E]) => port.postMessage({ event, payload }));
port.on('message', (e) => {
  const req = e.data as Request;
  void host.handle(req.channel, req.args).then((result) => port.postMessage({ id: req.id, result }));
});
void host.start();
