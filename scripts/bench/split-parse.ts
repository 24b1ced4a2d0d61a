// Would a second thread take `inspect` to the floor? (`npm run bench:split [-- MB]`)
//
// On a large transcript of real records, in this process: the floor (one thread reading, splitting
// and JSON.parse-ing every line) and the transcript parser, each on one thread and then split in two
// at the main-thread compaction boundary nearest the middle, the first part on a worker and the rest
// here at the same time. The split is what docs/performance.md describes; the states are not joined
// (that would only add to the split's time), so the split's figure is the best it could do. Each
// figure is the median of 5, run alternately; printed, never asserted.
import { closeSync, existsSync, mkdirSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { scanLines } from '@glassbox/file-io';
import { TranscriptParser } from '../../packages/adapter-claude-code/src/parser';
import { bundleWorker } from '../../packages/store/src/index/worker-source';
import { largeFiles } from './memory';

const ROOT = resolve(import.meta.dirname, '../..');
const megabytes = Number(process.argv[2] ?? 200);
const RUNS = 5;

/** The generated corpus's transcripts, the one whose window holds provably dead payloads last (as `bench` builds its files). */
function generatedTranscripts(): string[] {
  const shared = join(ROOT, '../shared/corpus/generated');
  const dir = existsSync(shared) ? shared : join(ROOT, 'fixtures/corpus/generated');
  const found = readdirSync(dir)
    .map((name) => join(dir, name, 'transcript.jsonl'))
    .filter((p) => existsSync(p));
  found.sort();
  return [...found.filter((f) => !f.includes('/01-superseded-reads/')), ...found.filter((f) => f.includes('/01-superseded-reads/'))];
}

const source = bundleWorker(join(import.meta.dirname, 'split-parse-worker.ts'));
if (source === null) throw new Error('bench:split: esbuild could not bundle the worker');
const tmp = join(ROOT, '.bench-tmp');
mkdirSync(tmp, { recursive: true });
const { path } = await largeFiles(generatedTranscripts(), tmp, 'window')(megabytes);
const size = statSync(path).size;

/** The start of the first main-thread compaction boundary's line at or after `target`, and its line number. */
function boundaryAfter(target: number): { offset: number; line: number } {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(8 << 20);
    for (let at = target; at < size; at += buf.length - 65536) {
      const n = readSync(fd, buf, 0, buf.length, at);
      const found = buf.subarray(0, n).indexOf('"subtype":"compact_boundary"');
      if (found < 0) continue;
      const offset = at + buf.lastIndexOf(10, found) + 1;
      return { offset, line: countLines(fd, offset) + 1 };
    }
    throw new Error('bench:split: no compaction boundary after the middle');
  } finally {
    closeSync(fd);
  }
}

function countLines(fd: number, end: number): number {
  const buf = Buffer.allocUnsafe(4 << 20);
  let lines = 0;
  for (let pos = 0; pos < end; ) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
    for (let i = buf.indexOf(10, 0); i >= 0 && i < n; i = buf.indexOf(10, i + 1)) lines++;
    pos += n;
  }
  return lines;
}

function onWorker(parser: boolean, lastLine: number): Promise<number> {
  const worker = new Worker(source as string, { eval: true, workerData: { path, fromOffset: 0, fromLine: 0, lastLine, parser } });
  return new Promise((done, fail) => {
    worker.once('message', (ms: number) => void worker.terminate().then(() => done(ms)));
    worker.once('error', fail);
  });
}

function here(parser: boolean, fromOffset: number, fromLine: number): void {
  if (!parser) {
    scanLines(path, (text) => void (text.length > 0 && JSON.parse(text)), fromOffset, fromLine);
    return;
  }
  const p = new TranscriptParser({ path });
  scanLines(path, (text, line, offset, length) => p.push(text, line, offset, length), fromOffset, fromLine);
  p.finish();
}

async function split(parser: boolean, at: { offset: number; line: number }): Promise<number> {
  const start = performance.now();
  const first = onWorker(parser, at.line);
  here(parser, at.offset, at.line - 1);
  await first;
  return performance.now() - start;
}

function timed(f: () => void): number {
  const start = performance.now();
  f();
  return performance.now() - start;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const at = boundaryAfter(Math.floor(size / 2));
console.log(`bench:split on ${(size / 1048576).toFixed(0)} MB of real records, split at line ${at.line} (${((at.offset / size) * 100).toFixed(0)}% of the bytes); median of ${RUNS}`);
for (const parser of [false, true]) {
  here(parser, 0, 0);
  await split(parser, at);
  const one: number[] = [];
  const two: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    one.push(timed(() => here(parser, 0, 0)));
    two.push(await split(parser, at));
  }
  const [a, b] = [median(one), median(two)];
  console.log(`  ${parser ? 'parser' : 'floor '}  one thread ${a.toFixed(0)} ms, split in two ${b.toFixed(0)} ms: ${(a / b).toFixed(2)}× as fast`);
}
