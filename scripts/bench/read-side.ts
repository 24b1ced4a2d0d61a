// `npm run bench -- [corpus folder]`: the read side (parse + rebuild the window + classify) against
// the floor measured in the same process: reading, splitting and JSON.parse of the same bytes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readSessionFile, scanLines, listSubagentFiles } from '@glassbox/adapter-claude-code/node';
import { analyzeSession } from '@glassbox/analysis';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { buildLargeTranscript } from './synthetic';
import { benchInspectMemory, largeFiles } from './memory';
import { benchFork } from './fork';

const ROOT = resolve(import.meta.dirname, '../..');

function transcripts(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (name !== 'subagents' && name !== 'project-after' && name !== 'file-history') walk(p);
      } else if (name.endsWith('.jsonl') && !p.includes('/claude-project/')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

function floor(path: string): void {
  scanLines(path, (text) => {
    if (text.length > 0) JSON.parse(text);
  });
}

function engine(path: string): number {
  const { session } = readSessionFile(path);
  const snap = analyzeSession(session, nodeAnalysisPorts());
  return snap.segments.length;
}

/** Best times of two functions run alternately, so that load from elsewhere hits both alike. */
function interleaved(a: () => void, b: () => void, runs: number): [number, number] {
  a();
  b();
  let ta = Infinity;
  let tb = Infinity;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    a();
    ta = Math.min(ta, performance.now() - t);
    t = performance.now();
    b();
    tb = Math.min(tb, performance.now() - t);
  }
  return [ta, tb];
}

const mbps = (bytes: number, ms: number): string => `${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MB/s`;

function child(path: string): void {
  const t = performance.now();
  const { session } = readSessionFile(path);
  const parsedHeap = process.memoryUsage().heapUsed;
  const snap = analyzeSession(session, nodeAnalysisPorts());
  const ms = performance.now() - t;
  global.gc?.();
  const retained = process.memoryUsage().heapUsed;
  console.log(
    JSON.stringify({ ms, parsedHeap, retained, maxRss: process.resourceUsage().maxRSS * 1024, nodes: session.nodes.size, segments: snap.segments.length }),
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1] ?? '');
  const corpus = resolve(args[0] ?? (existsSync(join(ROOT, '../shared/corpus')) ? join(ROOT, '../shared/corpus') : join(ROOT, 'fixtures/corpus')));
  const files = transcripts(corpus);
  let bytes = 0;
  for (const f of files) bytes += statSync(f).size;
  console.log(`Read side on ${corpus}: ${files.length} transcripts, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  const runs = 10;
  // A pass over the corpus takes milliseconds: time enough passes for a stable figure.
  const t0 = performance.now();
  files.forEach(floor);
  const passes = Math.max(1, Math.ceil(300 / Math.max(1, performance.now() - t0)));
  const [tFloor, tEngine] = interleaved(
    () => { for (let i = 0; i < passes; i++) files.forEach(floor); },
    () => { for (let i = 0; i < passes; i++) files.forEach(engine); },
    runs,
  ).map((t) => t / passes) as [number, number];
  console.log(`  floor (read + split + JSON.parse)   ${tFloor.toFixed(1)} ms  ${mbps(bytes, tFloor)}`);
  console.log(`  engine (parse + window + classify)  ${tEngine.toFixed(1)} ms  ${mbps(bytes, tEngine)}  ratio ${(tEngine / tFloor).toFixed(2)}× the floor`);

  const tmp = join(ROOT, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  const generated = files.filter((f) => f.includes('/generated/'));
  const sources = generated.length > 0 ? generated : files;
  for (const mb of [50, 220]) {
    const big = join(tmp, `large-${mb}mb.jsonl`);
    const size = await buildLargeTranscript(sources, big, mb * 1024 * 1024);
    const [tf, te] = interleaved(() => floor(big), () => engine(big), 2);
    const r = spawnSync(process.execPath, ['--expose-gc', join(ROOT, 'apps/cli/bin/run-ts.mjs'), join(ROOT, 'scripts/bench/read-side.ts'), '--child', big], { encoding: 'utf8' });
    const m = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { parsedHeap: number; retained: number; maxRss: number; nodes: number; segments: number };
    console.log(`Large transcript of real records: ${(size / 1024 / 1024).toFixed(0)} MB, ${m.nodes} chain records`);
    console.log(`  floor   ${tf.toFixed(0)} ms  ${mbps(size, tf)}`);
    console.log(`  engine  ${te.toFixed(0)} ms  ${mbps(size, te)}  ratio ${(te / tf).toFixed(2)}× the floor`);
    console.log(
      `  memory  heap after parse ${(m.parsedHeap / 1048576).toFixed(0)} MB, after analysis ${(m.retained / 1048576).toFixed(0)} MB, peak RSS ${(m.maxRss / 1048576).toFixed(0)} MB (file ${(size / 1048576).toFixed(0)} MB); resident window ${m.segments} segments`,
    );
  }
  void listSubagentFiles;

  // The same real transcripts in the same order, the one whose window holds provably dead payloads
  // last, so that a fork of the large file has something to remove.
  const lastDead = [...sources.filter((f) => !f.includes('/01-superseded-reads/')), ...sources.filter((f) => f.includes('/01-superseded-reads/'))];
  const large = largeFiles(lastDead, tmp, 'window');
  const dataDir = mkdtempSync(join(tmpdir(), 'glassbox-bench-data-'));
  try {
    await benchInspectMemory(large, [200, 500], dataDir);
    await benchFork(large, [100, 500]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
