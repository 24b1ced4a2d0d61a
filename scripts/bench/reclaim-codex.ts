import { buildForkFromLines, validateFromLines, type ForkAction, type ForkResult, type ValidateOptions, type ValidationReport } from '@glassbox/core';
// `node apps/cli/bin/run-ts.mjs scripts/bench/reclaim-codex.ts [folder] [--with-spent]`: what cleaning
// would reclaim across a folder of Codex rollouts (default: fixtures/corpus), by class. For every
// rollout (identical copies counted once), the unchanged analysis and planner run with their
// defaults, and the Codex adapter builds and validates the fork in memory — nothing is written. A
// rollout with a `project-after/` folder above it (the generated corpus) has its working directory
// mapped there; a `codex exec fork` file, which resumes through its parent, is listed as not forkable.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { analyzeSession, planEviction } from '@glassbox/analysis';
import { codexFormat } from '@glassbox/adapter-codex';
import { readRolloutFile } from '@glassbox/adapter-codex/node';
import type { DeadClass } from '@glassbox/core';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { filesUnder, projectAfter } from '../corpus-files';
import { clip, printReclaimSummary, printReclaimTable, type CountColumn, type ReclaimRow } from './reclaim-table';

/** The seam's streaming builder and validator, run over lines held in memory. */
const forkLines = (lines: readonly string[], actions: readonly ForkAction[], id: string): ForkResult => buildForkFromLines(codexFormat.createForkBuilder(actions, id), lines);
const validateLines = (original: readonly string[], fork: readonly string[], options?: ValidateOptions): ValidationReport => validateFromLines(codexFormat.createForkValidator(options), original, fork);


const args = process.argv.slice(2);
const withInferred = args.includes('--with-spent');
const folder = resolve(args.find((a) => !a.startsWith('--')) ?? 'fixtures/corpus');
const CLASSES: DeadClass[] = withInferred ? ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'] : ['gone', 'stale-drift', 'stale-superseded', 'duplicate'];
const PREVIEW_ID = '00000000-0000-7000-8000-000000000000';

function label(path: string): string {
  const rel = relative(folder, path)
    .replace(/\/sessions\/\d{4}\/\d{2}\/\d{2}\//, '/')
    .replace(/rollout-(\d{4}-\d{2}-\d{2})T[\d-]+-[0-9a-f-]{24}([0-9a-f]{12})\.jsonl$/, '$1 …$2');
  return clip(rel);
}

interface Row extends ReclaimRow {
  outputs: number;
}

const seen = new Set<string>();
const rows: Row[] = [];
for (const path of filesUnder(folder, ['project-after', 'node_modules'], (name) => /^rollout-.*\.jsonl$/.test(name))) {
  const text = readFileSync(path, 'utf8');
  const sha = createHash('sha256').update(text).digest('hex');
  if (seen.has(sha)) continue;
  seen.add(sha);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const session = readRolloutFile(path);
  const snapshot = analyzeSession(session, nodeAnalysisPorts(), { repoRoot: projectAfter(path, 6), withInferred });
  const plan = planEviction(snapshot, { classes: CLASSES });
  const byClass = { gone: 0, 'stale-drift': 0, 'stale-superseded': 0, duplicate: 0, spent: 0 } as Record<DeadClass, number>;
  for (const a of plan.actions) byClass[a.class] += a.tokensFreed;
  const fork = plan.actions.length > 0 ? forkLines(lines, plan.actions, PREVIEW_ID) : null;
  const report = fork && fork.applied.length > 0 ? validateLines(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines }) : null;
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

const outputs: CountColumn<Row> = { header: 'outputs', of: (r) => r.outputs };
console.log(`Reclaim on Codex rollouts under ${folder}: ${rows.length} rollouts; classes ${CLASSES.join(', ')}; default protected tail`);
console.log('resident = provider-reported context of the last request (estimated where none); class columns, tombstones and net are estimated tokens');
console.log('outputs = command outputs tombstoned; fork = built and validated in memory by the Codex adapter');
console.log('');
printReclaimTable(rows, CLASSES, 'rollout', [outputs]);
printReclaimSummary(rows, CLASSES, { one: 'rollout', many: 'rollouts' }, outputs);
process.exitCode = rows.every((r) => r.valid !== false) ? 0 : 1;
