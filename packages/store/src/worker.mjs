// Worker-thread entry of the index's pool. Module hooks registered in the main thread do not reach a
// worker, so it registers the TypeScript loader itself before loading the job code.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { runJob } = await import('./worker-main.ts');
parentPort.on('message', (msg) => {
  let result;
  try {
    result = runJob(msg.job);
  } catch (error) {
    result = { ok: false, code: null, message: String(error?.message ?? error) };
  }
  parentPort.postMessage({ id: msg.id, result });
});
