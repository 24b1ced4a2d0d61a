// `npm run bench:compactions -- [MB]`: the compaction x-ray of a large transcript against the baseline
// measured in the same process: loading and analysing the same file (what opening it costs anyway).
// The file is fixture 18's real records repeated with fresh ids (scripts/bench/synthetic.ts): each
// repetition is a new root, so the live conversation meets the last repetition's two compactions, each
// of whose windows is rebuilt by parsing the file up to it.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { analyzeSession } from '@glassbox/analysis';
import { compactionHistories } from '@glassbox/store';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { buildLargeTranscript } from './synthetic';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCE = join(ROOT, 'fixtures/corpus/generated/18-compaction-kept-dropped/transcript.jsonl');

async function main(): Promise<void> {
  const mb = Number(process.argv[2] ?? 20);
  const dir = join(tmpdir(), 'glassbox-bench');
  mkdirSync(dir, { recursive: true });
  const big = join(dir, `compactions-${mb}mb.jsonl`);
  const size = await buildLargeTranscript([SOURCE], big, mb * 1024 * 1024);
  let baseline = Infinity;
  let xray = Infinity;
  let live = 0;
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    const loaded = loadSessionWithSubagents(big);
    analyzeSession(loaded.session, nodeAnalysisPorts());
    baseline = Math.min(baseline, performance.now() - t);
    t = performance.now();
    const [main] = compactionHistories(claudeCodeFormat, loaded, { repoRoot: null });
    xray = Math.min(xray, performance.now() - t);
    live = main?.compactions.length ?? 0;
  }
  console.log(`${(size / 1024 / 1024).toFixed(1)} MB, ${live} compactions on the live chain`);
  console.log(`open (load + analyse): ${baseline.toFixed(0)} ms · x-ray of every compaction: ${xray.toFixed(0)} ms · ratio ${(xray / baseline).toFixed(2)}×`);
}

await main();
