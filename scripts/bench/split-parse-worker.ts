// The worker side of `bench:split` (split-parse.ts): parses the lines it is given and says how long
// that took on its own thread. `parser` false: the floor's work only (read, split, JSON.parse).
import { parentPort, workerData } from 'node:worker_threads';
import { scanLines } from '@glassbox/file-io';
import { TranscriptParser } from '../../packages/adapter-claude-code/src/parser';

const { path, fromOffset, fromLine, lastLine, parser } = workerData as { path: string; fromOffset: number; fromLine: number; lastLine: number; parser: boolean };
const start = performance.now();
if (parser) {
  const p = new TranscriptParser({ path });
  scanLines(path, (text, line, offset, length) => p.push(text, line, offset, length), fromOffset, fromLine, lastLine);
  p.finish();
} else {
  scanLines(path, (text) => void (text.length > 0 && JSON.parse(text)), fromOffset, fromLine, lastLine);
}
parentPort?.postMessage(performance.now() - start);
