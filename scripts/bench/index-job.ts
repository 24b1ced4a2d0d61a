// Where the whole cold index's CPU goes (`node apps/cli/bin/run-ts.mjs scripts/bench/index-job.ts <tree> [--limit N]`).
//
// On one thread, in this process: the floor (read + split + JSON.parse of every line) and the index
// job (`runIndex`: one read feeding the summary and the analysis) over the same session files, as a
// ratio. Set against `bench:index`'s CPU for the whole refresh on the same tree, the difference is
// what the refresh spends outside the jobs (the list stage, SQLite writes, threads' start-up, answers
// crossing threads). A tree kept by `npm run bench:index -- --keep` (its `synthetic/projects`) fits.
// Figures are printed, never asserted.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultAgents } from '@glassbox/agents';
import { runIndex } from '../../packages/store/src/index/index-job';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? 'fixtures/corpus');
const li = args.indexOf('--limit');
const limit = li >= 0 ? Number(args[li + 1]) : Infinity;

const files: string[] = [];
const walk = (d: string): void => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    // Session files only: a subagent file is read with its parent (the refresh summarises it alone).
    else if (p.endsWith('.jsonl') && !p.includes('/subagents/')) files.push(p);
  }
};
walk(root);
files.sort();
const chosen = files.slice(0, limit);
const bytes = chosen.reduce((n, p) => n + statSync(p).size, 0);
const cpu = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

const agents = defaultAgents();
// One job first, so module loading is not counted in the index job's figure.
if (chosen[0]) runIndex({ type: 'index', agent: 'claude-code', path: chosen[0], mappings: {} }, agents);

const f0 = process.cpuUsage();
let records = 0;
for (const p of chosen) {
  for (const line of readFileSync(p, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      JSON.parse(line);
      records++;
    } catch {
      // read all the same
    }
  }
}
const floorCpu = cpu(f0);

const j0 = process.cpuUsage();
let failed = 0;
for (const p of chosen) {
  const r = runIndex({ type: 'index', agent: 'claude-code', path: p, mappings: {} }, agents);
  if (!r.summary.ok || !r.analysis.ok) failed++;
}
const jobCpu = cpu(j0);
const mb = (bytes / 1e6).toFixed(1);
console.log(`${chosen.length} session files (subagents read with them), ${mb} MB, ${records} records; ${failed} not analysable`);
console.log(`floor (read + split + JSON.parse, 1 thread): CPU ${(floorCpu / 1000).toFixed(2)} s`);
console.log(`index jobs (summary + analysis from one read, 1 thread): CPU ${(jobCpu / 1000).toFixed(2)} s = ${(jobCpu / floorCpu).toFixed(2)}× the floor`);
