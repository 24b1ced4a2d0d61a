// `npm run bench:reclaim -- <folder> [--with-spent] [--with-elision]`: what cleaning would reclaim across a folder of
// sessions. For every Claude Code session file under the folder (identical copies counted once;
// subagent files are separate windows and not cleaned on their own), the real planner runs with its
// defaults and the fork is built and validated in memory — nothing is written. A session with a
// `project-after/` folder beside it (the generated corpus) has its working directory mapped there.
// The second table is the prompt-cache bill of each fork (see docs/economics.md): forking one minute
// after the last response (warm cache) and a day after it (cold cache).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { DEAD_CLASSES, PROVABLE_CLASSES, formatUsd, humanTokens, zeroByDeadClass, type DeadClass, type ForkEconomics } from '@glassbox/core';
import { cacheModel, economicsOf, totalCost } from '@glassbox/analysis';
import { previewFork } from '@glassbox/store/fork';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';
import { filesUnder, projectAfter } from '../corpus-files';
import { elisionBench } from './reclaim-elision';
import { clip, pad, printReclaimSummary, printReclaimTable, type CountColumn, type ReclaimRow } from './reclaim-table';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const agents = defaultAgents();

const args = process.argv.slice(2);
const withInferred = args.includes('--with-spent');
const folder = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const withElision = args.includes('--with-elision');
// Elision is never among these: --with-elision adds its own tables (reclaim-elision.ts).
const CLASSES: DeadClass[] = withInferred ? DEAD_CLASSES.filter((c) => c !== 'elided') : [...PROVABLE_CLASSES];

/** A short name: the path under the folder, without the layout's fixed parts; a session id shortened. */
function label(path: string): string {
  const rel = relative(folder, path)
    .replace(/\/claude-project\//, '/')
    .replace(/\/transcript\.jsonl$/, '')
    .replace(/\.jsonl$/, '')
    .replace(/([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '$1');
  return clip(rel);
}

interface Row extends ReclaimRow {
  payloads: number;
  copies: number;
  /** Forking one minute after the last response, and a day after it; null without a plan or a response time. */
  warm: ForkEconomics | null;
  cold: ForkEconomics | null;
  /** Main-thread requests the session has made so far. */
  requests: number;
}

const seen = new Set<string>();
const rows: Row[] = [];
let skipped = 0;
const sessionFiles = filesUnder(folder, ['subagents', 'project-after', 'file-history', 'tool-results', 'node_modules'], (name) => name.endsWith('.jsonl') && !name.startsWith('agent-'));
const unique: string[] = [];
for (const path of sessionFiles) {
  const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
  if (seen.has(sha)) continue;
  seen.add(sha);
  unique.push(path);
  const { planned, fork, report } = previewFork(path, { agent: agentForFile(TEST_AGENTS, path), repoRoot: projectAfter(path, 3), classes: CLASSES, withInferred });
  if (planned.session.problems.some((p) => p.code === 'not_a_transcript' || p.code === 'file_empty')) {
    skipped++;
    continue;
  }
  const byClass = zeroByDeadClass(() => 0);
  for (const a of planned.plan.actions) byClass[a.class] += a.tokensFreed;
  const ctx = planned.snapshot.context;
  const last = planned.economics.lastResponseAt;
  const at = (offsetMs: number): ForkEconomics | null =>
    last && planned.plan.actions.length > 0 ? economicsOf(cacheModel(planned.snapshot, { at: new Date(Date.parse(last) + offsetMs), prices: agentForFile(agents, path).format.prices }), planned.plan) : null;
  rows.push({
    name: label(path),
    resident: ctx.reportedTokens ?? ctx.estimatedTokens,
    reported: ctx.reportedTokens !== null,
    byClass,
    tombstones: planned.plan.totals.tombstoneTokens,
    net: planned.plan.totals.netReclaimed,
    payloads: fork?.applied.length ?? 0,
    copies: fork?.applied.reduce((n, a) => n + a.removed.length, 0) ?? 0,
    valid: report?.ok ?? null,
    note: !fork ? (planned.plan.reasons[0]?.code ?? '') : fork.refused.length > 0 ? `${fork.refused.length} refused` : '',
    warm: at(60_000),
    cold: at(24 * 3600_000),
    requests: planned.snapshot.turns.length,
  });
}

const payloads: CountColumn<Row> = { header: 'payloads', of: (r) => r.payloads };
const copies: CountColumn<Row> = { header: 'copies', of: (r) => r.copies };
console.log(`Reclaim on ${folder}: ${rows.length} sessions${skipped ? ` (${skipped} files skipped: not Claude Code transcripts)` : ''}; classes ${CLASSES.join(', ')}; default protected tail`);
console.log('resident = provider-reported context of the last request (estimated where none); class columns, tombstones and net are estimated tokens');
console.log('payloads = tool results and Write/Edit inputs tombstoned; copies = those plus their toolUseResult mirrors; fork = validated in memory');
console.log('');
printReclaimTable(rows, CLASSES, 'session', [payloads, copies]);
printReclaimSummary(rows, CLASSES, { one: 'session', many: 'sessions' }, copies);

// The prompt-cache bill of each fork.
const priced = rows.filter((r) => r.warm && r.cold);
const money = (v: number | null): string => (v === null ? 'n/a' : formatUsd(v));
const usdOf = (e: ForkEconomics, tokens: number): number | null => (e.price.inputUsdPerMTok === null ? null : (tokens * e.price.inputUsdPerMTok) / 1e6);
const warmExtra = (e: ForkEconomics): number | null => usdOf(e, e.fork.nextRequestTokens - e.original.nextRequestTokens);
const coldSaving = (e: ForkEconomics, n: number): number | null => usdOf(e, totalCost(e, 'original', n) - totalCost(e, 'fork', n));
const ecols = ['ttl', 'window', 'prefix', 'saved/req', 'warm extra', 'break-even', 'requests', 'cold 10', 'cold 50'];
const eline = (name: string, cells: string[]): string => `${pad(name, 52)} ${cells.map((c) => pad(c, 11, true)).join(' ')}`;
console.log('');
console.log('Prompt-cache bill of each fork (list prices; see docs/economics.md)');
console.log('warm extra = what forking one minute after the last response costs on the next request over continuing the original;');
console.log('break-even = requests after which that fork is cheaper in total; requests = main-thread requests the session made so far;');
console.log('cold 10 / cold 50 = what the fork saves over the next 10 / 50 requests when the cache has expired (a day later)');
console.log('');
console.log(eline('session', ecols));
let never = 0;
let beyond = 0;
for (const r of priced) {
  const w = r.warm as ForkEconomics;
  const c = r.cold as ForkEconomics;
  if (w.breakEvenRequests === null) never++;
  else if (w.breakEvenRequests > r.requests) beyond++;
  console.log(
    eline(r.name, [
      w.ttl,
      humanTokens(w.windowTokens),
      humanTokens(w.prefixTokens),
      humanTokens(w.savedTokensPerRequest),
      money(warmExtra(w)),
      w.breakEvenRequests === null ? 'never' : String(w.breakEvenRequests),
      String(r.requests),
      money(coldSaving(c, 10)),
      money(coldSaving(c, 50)),
    ]),
  );
}
const sum = (f: (r: Row) => number | null): number | null => priced.reduce<number | null>((n, r) => (n === null ? null : ((v) => (v === null ? null : n + v))(f(r))), 0);
console.log(
  eline('TOTAL', [
    '',
    humanTokens(priced.reduce((n, r) => n + (r.warm?.windowTokens ?? 0), 0)),
    '',
    humanTokens(priced.reduce((n, r) => n + (r.warm?.savedTokensPerRequest ?? 0), 0)),
    money(sum((r) => warmExtra(r.warm as ForkEconomics))),
    '',
    String(priced.reduce((n, r) => n + r.requests, 0)),
    money(sum((r) => coldSaving(r.cold as ForkEconomics, 10))),
    money(sum((r) => coldSaving(r.cold as ForkEconomics, 50))),
  ]),
);
console.log(
  `\nforks ${priced.length}: with a warm cache, ${never} never pay back; ${beyond} pay back only after more requests than the session has made so far; with a cold cache every fork is cheaper from the first request`,
);
const elisionValid = withElision ? elisionBench(unique, label, agents).valid : true;
process.exitCode = rows.every((r) => r.valid !== false) && elisionValid ? 0 : 1;
