// `npm run bench -- [corpus folder] [--agent claude-code|codex]`: the read side (parse + rebuild the
// window + classify) against the floor measured in the same process: reading, splitting and
// JSON.parse of the same bytes. Each agent's transcripts (recognised by content) are read by that
// agent's adapter and measured on their own, then on large files built from its real records.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';
import { scanLines } from '@glassbox/file-io';
import { analyzeSession } from '@glassbox/analysis';
import type { Agent } from '@glassbox/core';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { buildLargeTranscript } from './synthetic';
import { buildLargeRollout } from './synthetic-codex';
import { benchInspectMemory, largeFiles } from './memory';
import { benchFork } from './fork';

const agents = defaultAgents();

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

function engine(agent: Agent, path: string): number {
  const session = agent.locator.parseFile(path);
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

function child(path: string, agentId: string): void {
  const t = performance.now();
  const session = agents.byId(agentId).locator.parseFile(path);
  const parsedHeap = process.memoryUsage().heapUsed;
  const snap = analyzeSession(session, nodeAnalysisPorts());
  const ms = performance.now() - t;
  global.gc?.();
  const retained = process.memoryUsage().heapUsed;
  console.log(
    JSON.stringify({ ms, parsedHeap, retained, maxRss: process.resourceUsage().maxRSS * 1024, nodes: session.nodes.size, segments: snap.segments.length }),
  );
}

/** How each agent's large file is built from its real transcripts (in the generated corpus when there is one). */
const LARGE: Record<string, { build: (sources: string[], target: string, bytes: number) => Promise<number>; sources: (files: string[]) => string[]; name: string }> = {
  'claude-code': {
    build: buildLargeTranscript,
    sources: (files) => files.filter((f) => f.includes('/generated/')),
    name: 'transcript',
  },
  codex: {
    build: buildLargeRollout,
    // One generation (the 2026 one the harness records), without the `codex exec fork` file that resumes through its parent.
    sources: (files) => files.filter((f) => f.includes('/codex/') && !(readFileSync(f, 'utf8').split('\n', 1)[0] ?? '').includes('"history_base"')),
    name: 'rollout',
  },
};

async function benchAgent(agent: Agent, files: string[], corpus: string): Promise<void> {
  let bytes = 0;
  for (const f of files) bytes += statSync(f).size;
  console.log(`${agent.format.label} read side on ${corpus}: ${files.length} transcripts, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  const runs = 10;
  // A pass over the corpus takes milliseconds: time enough passes for a stable figure.
  const t0 = performance.now();
  files.forEach(floor);
  const passes = Math.max(1, Math.ceil(300 / Math.max(1, performance.now() - t0)));
  const [tFloor, tEngine] = interleaved(
    () => { for (let i = 0; i < passes; i++) files.forEach(floor); },
    () => { for (let i = 0; i < passes; i++) files.forEach((f) => engine(agent, f)); },
    runs,
  ).map((t) => t / passes) as [number, number];
  console.log(`  floor (read + split + JSON.parse)   ${tFloor.toFixed(1)} ms  ${mbps(bytes, tFloor)}`);
  console.log(`  engine (parse + window + classify)  ${tEngine.toFixed(1)} ms  ${mbps(bytes, tEngine)}  ratio ${(tEngine / tFloor).toFixed(2)}× the floor`);

  const large = LARGE[agent.format.id];
  if (!large) return;
  const tmp = join(ROOT, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  const chosen = large.sources(files);
  const sources = chosen.length > 0 ? chosen : files;
  for (const mb of [50, 220]) {
    const big = join(tmp, `large-${agent.format.id}-${mb}mb.jsonl`);
    const size = await large.build(sources, big, mb * 1024 * 1024);
    const [tf, te] = interleaved(() => floor(big), () => engine(agent, big), 2);
    const r = spawnSync(process.execPath, ['--expose-gc', join(ROOT, 'apps/cli/bin/run-ts.mjs'), join(ROOT, 'scripts/bench/read-side.ts'), '--child', big, agent.format.id], { encoding: 'utf8' });
    const m = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { parsedHeap: number; retained: number; maxRss: number; nodes: number; segments: number };
    console.log(`Large ${large.name} of real records: ${(size / 1024 / 1024).toFixed(0)} MB, ${m.nodes} chain records`);
    console.log(`  floor   ${tf.toFixed(0)} ms  ${mbps(size, tf)}`);
    console.log(`  engine  ${te.toFixed(0)} ms  ${mbps(size, te)}  ratio ${(te / tf).toFixed(2)}× the floor`);
    console.log(
      `  memory  heap after parse ${(m.parsedHeap / 1048576).toFixed(0)} MB, after analysis ${(m.retained / 1048576).toFixed(0)} MB, peak RSS ${(m.maxRss / 1048576).toFixed(0)} MB (file ${(size / 1048576).toFixed(0)} MB); resident window ${m.segments} segments`,
    );
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1] ?? '', args[2] ?? 'claude-code');
  const only = args.includes('--agent') ? args[args.indexOf('--agent') + 1] : null;
  const folder = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--agent');
  const corpus = resolve(folder ?? (existsSync(join(ROOT, '../shared/corpus')) ? join(ROOT, '../shared/corpus') : join(ROOT, 'fixtures/corpus')));
  const byAgent = new Map<string, string[]>();
  for (const f of transcripts(corpus)) {
    const id = agentForFile(agents, f).format.id;
    byAgent.set(id, [...(byAgent.get(id) ?? []), f]);
  }
  for (const agent of agents.agents) {
    const files = byAgent.get(agent.format.id) ?? [];
    if (files.length === 0 || (only && only !== agent.format.id)) continue;
    await benchAgent(agent, files, corpus);
  }
  const claude = (byAgent.get('claude-code') ?? []).filter((f) => f.includes('/generated/'));
  if (claude.length > 0 && (!only || only === 'claude-code')) await benchLarge(claude);
}

/**
 * Memory and the fork on large files of Claude Code's real records: `inspect --json`'s peak RSS at 200
 * and 500 MB, and a fork's time against the floor and its peak RSS at 100 and 500 MB. The transcripts
 * go in the same order, the one whose window holds provably dead payloads last, so a fork of the
 * large file has something to remove.
 */
async function benchLarge(sources: string[]): Promise<void> {
  const tmp = join(ROOT, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  const lastDead = [...sources.filter((f) => !f.includes('/01-superseded-reads/')), ...sources.filter((f) => f.includes('/01-superseded-reads/'))];
  const large = largeFiles(lastDead, tmp, 'window');
  const dataDir = mkdtempSync(join(tmpdir(), 'glassbox-bench-data-'));
  try {
    await benchInspectMemory(large, [200, 500], dataDir, floor);
    await benchFork(large, [100, 500]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
