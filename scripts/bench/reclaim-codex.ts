// `node apps/cli/bin/run-ts.mjs scripts/bench/reclaim-codex.ts [folder] [--with-spent]`: what cleaning
// would reclaim across a folder of Codex rollouts (default: fixtures/corpus), by class. For every
// rollout (identical copies counted once), the unchanged analysis and planner run with their
// defaults, and the Codex adapter builds and validates the fork in memory — nothing is written. A
// rollout with a `project-after/` folder above it (the generated corpus) has its working directory
// mapped there; a `codex exec fork` file, which resumes through its parent, is listed as not forkable.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { analyzeSession, planEviction } from '@glassbox/analysis';
import { codexFormat } from '@glassbox/adapter-codex';
import { readRolloutFile } from '@glassbox/adapter-codex/node';
import { humanTokens, type DeadClass } from '@glassbox/core';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';

const args = process.argv.slice(2);
const withSpent = args.includes('--with-spent');
const folder = resolve(args.find((a) => !a.startsWith('--')) ?? 'fixtures/corpus');
const CLASSES: DeadClass[] = withSpent ? ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'] : ['gone', 'stale-drift', 'stale-superseded', 'duplicate'];
const PREVIEW_ID = '00000000-0000-7000-8000-000000000000';

function rollouts(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (!['project-after', 'node_modules'].includes(name)) walk(p);
      } else if (/^rollout-.*\.jsonl$/.test(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

function repoFor(path: string): string | null {
  let d = dirname(path);
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(d, 'project-after'))) return join(d, 'project-after');
    d = dirname(d);
  }
  return null;
}

function label(path: string): string {
  const rel = relative(folder, path)
    .replace(/\/sessions\/\d{4}\/\d{2}\/\d{2}\//, '/')
    .replace(/rollout-(\d{4}-\d{2}-\d{2})T[\d-]+-[0-9a-f-]{24}([0-9a-f]{12})\.jsonl$/, '$1 …$2');
  return rel.length > 52 ? '…' + rel.slice(rel.length - 51) : rel;
}

interface Row {
  name: string;
  resident: number;
  reported: boolean;
  byClass: Record<DeadClass, number>;
  tombstones: number;
  net: number;
  outputs: number;
  valid: boolean | null;
  note: string;
}

const seen = new Set<string>();
const rows: Row[] = [];
for (const path of rollouts(folder)) {
  const text = readFileSync(path, 'utf8');
  const sha = createHash('sha256').update(text).digest('hex');
  if (seen.has(sha)) continue;
  seen.add(sha);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const session = readRolloutFile(path);
  const snapshot = analyzeSession(session, nodeAnalysisPorts(), { repoRoot: repoFor(path), withSpent });
  const plan = planEviction(snapshot, { classes: CLASSES });
  const byClass = { gone: 0, 'stale-drift': 0, 'stale-superseded': 0, duplicate: 0, spent: 0 } as Record<DeadClass, number>;
  for (const a of plan.actions) byClass[a.class] += a.tokensFreed;
  const fork = plan.actions.length > 0 ? codexFormat.buildFork(lines, plan.actions, PREVIEW_ID) : null;
  const report = fork && fork.applied.length > 0 ? codexFormat.validateFork(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines }) : null;
  const ctx = snapshot.context;
  const fileRefusal = fork?.refused.find((r) => r.code === 'file_refused');
  rows.push({
    name: label(path),
    resident: ctx.reportedTokens ?? ctx.estimatedTokens,
    reported: ctx.reportedTokens !== null,
    byClass,
    tombstones: plan.totals.tombstoneTokens,
    net: plan.totals.netReclaimed,
    outputs: fork?.applied.length ?? 0,
    valid: report?.ok ?? null,
    note: session.historyBase
      ? 'codex exec fork: resumes through its parent, not forkable alone'
      : fileRefusal
        ? fileRefusal.message
        : !fork
          ? (plan.reasons[0]?.code ?? '')
          : fork.refused.length > 0
            ? `${fork.refused.length} refused (${[...new Set(fork.refused.map((r) => r.code))].join(', ')})`
            : '',
  });
}

const pad = (s: string, n: number, right = false): string => (s.length >= n ? s : right ? ' '.repeat(n - s.length) + s : s + ' '.repeat(n - s.length));
const cls = CLASSES.map((c) => (c === 'stale-superseded' ? 'superseded' : c === 'stale-drift' ? 'drift' : c));
const cols = ['resident', ...cls, 'tombstones', 'net', 'net %', 'outputs', 'fork'];
const line = (name: string, cells: string[]): string => `${pad(name, 52)} ${cells.map((c, i) => pad(c, i === cols.length - 1 ? 5 : 10, true)).join(' ')}`;
const total = (f: (r: Row) => number): number => rows.reduce((n, r) => n + f(r), 0);
const resident = total((r) => r.resident);
const net = total((r) => r.net);

console.log(`Reclaim on Codex rollouts under ${folder}: ${rows.length} rollouts; classes ${CLASSES.join(', ')}; default protected tail`);
console.log('resident = provider-reported context of the last request (estimated where none); class columns, tombstones and net are estimated tokens');
console.log('outputs = command outputs tombstoned; fork = built and validated in memory by the Codex adapter');
console.log('');
console.log(line('rollout', cols));
for (const r of rows) {
  console.log(
    line(r.name, [
      `${humanTokens(r.resident)}${r.reported ? '' : '*'}`,
      ...CLASSES.map((c) => humanTokens(r.byClass[c])),
      humanTokens(r.tombstones),
      humanTokens(r.net),
      r.resident > 0 ? `${((r.net / r.resident) * 100).toFixed(1)}%` : '-',
      String(r.outputs),
      r.valid === null ? '-' : r.valid ? 'ok' : 'FAIL',
    ]) + (r.note ? `  ${r.note}` : ''),
  );
}
console.log(
  line('TOTAL', [
    humanTokens(resident),
    ...CLASSES.map((c) => humanTokens(total((r) => r.byClass[c]))),
    humanTokens(total((r) => r.tombstones)),
    humanTokens(net),
    resident > 0 ? `${((net / resident) * 100).toFixed(1)}%` : '-',
    String(total((r) => r.outputs)),
    rows.every((r) => r.valid !== false) ? 'ok' : 'FAIL',
  ]),
);
console.log(`\nrollouts ${rows.length} · resident ${humanTokens(resident)} · reclaimable ${humanTokens(total((r) => CLASSES.reduce((n, c) => n + r.byClass[c], 0)))} · tombstones ${humanTokens(total((r) => r.tombstones))} · net reclaimed ${humanTokens(net)} · outputs tombstoned ${total((r) => r.outputs)}`);
if (rows.some((r) => r.resident > 0 && !r.reported)) console.log('* estimated: no provider-reported usage in the rollout');
process.exitCode = rows.every((r) => r.valid !== false) ? 0 : 1;
