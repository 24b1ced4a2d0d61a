// `npm run bench:reclaim -- <folder> [--with-spent]`: what cleaning would reclaim across a folder of
// sessions. For every Claude Code session file under the folder (identical copies counted once;
// subagent files are separate windows and not cleaned on their own), the real planner runs with its
// defaults and the fork is built and validated in memory — nothing is written. A session with a
// `project-after/` folder beside it (the generated corpus) has its working directory mapped there.
// The second table is the prompt-cache bill of each fork (see docs/economics.md): forking one minute
// after the last response (warm cache) and a day after it (cold cache).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { DEAD_CLASSES, PROVABLE_CLASSES, formatUsd, humanTokens, zeroByDeadClass, type DeadClass, type ForkEconomics } from '@glassbox/core';
import { cacheModel, economicsOf, totalCost } from '@glassbox/analysis';
import { previewFork, readSource } from '@glassbox/store/fork';
import { agentForFile, defaultAgents } from '@glassbox/agents';

const agents = defaultAgents();

const args = process.argv.slice(2);
const withSpent = args.includes('--with-spent');
const folder = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const CLASSES: DeadClass[] = withSpent ? [...DEAD_CLASSES] : [...PROVABLE_CLASSES];

function sessionFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (!['subagents', 'project-after', 'file-history', 'tool-results', 'node_modules'].includes(name)) walk(p);
      } else if (name.endsWith('.jsonl') && !name.startsWith('agent-')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** `project-after/` in the session's folder or one of its two parents (the generated corpus layout). */
function repoFor(path: string): string | null {
  let d = dirname(path);
  for (let i = 0; i < 3; i++) {
    if (existsSync(join(d, 'project-after'))) return join(d, 'project-after');
    d = dirname(d);
  }
  return null;
}

/** A short name: the path under the folder, without the layout's fixed parts; a session id shortened. */
function label(path: string): string {
  const rel = relative(folder, path)
    .replace(/\/claude-project\//, '/')
    .replace(/\/transcript\.jsonl$/, '')
    .replace(/\.jsonl$/, '')
    .replace(/([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '$1');
  return rel.length > 52 ? '…' + rel.slice(rel.length - 51) : rel;
}

interface Row {
  name: string;
  resident: number;
  reported: boolean;
  byClass: Record<DeadClass, number>;
  tombstones: number;
  net: number;
  payloads: number;
  copies: number;
  /** The fork validated in memory; null when there was nothing to fork. */
  valid: boolean | null;
  note: string;
  /** Forking one minute after the last response, and a day after it; null without a plan or a response time. */
  warm: ForkEconomics | null;
  cold: ForkEconomics | null;
  /** Main-thread requests the session has made so far. */
  requests: number;
}

const seen = new Set<string>();
const rows: Row[] = [];
let skipped = 0;
for (const path of sessionFiles(folder)) {
  const source = readSource(path);
  if (seen.has(source.sha256)) continue;
  seen.add(source.sha256);
  const { planned, fork, report } = previewFork(path, source.lines, { repoRoot: repoFor(path), classes: CLASSES, withSpent });
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

const pad = (s: string, n: number, right = false): string => (s.length >= n ? s : right ? ' '.repeat(n - s.length) + s : s + ' '.repeat(n - s.length));
const cls = CLASSES.map((c) => (c === 'stale-superseded' ? 'superseded' : c === 'stale-drift' ? 'drift' : c));
const cols = ['resident', ...cls, 'tombstones', 'net', 'net %', 'payloads', 'copies', 'fork'];
const line = (name: string, cells: string[]): string => `${pad(name, 52)} ${cells.map((c, i) => pad(c, i === cols.length - 1 ? 5 : 10, true)).join(' ')}`;
const total = (f: (r: Row) => number): number => rows.reduce((n, r) => n + f(r), 0);
const resident = total((r) => r.resident);
const net = total((r) => r.net);

console.log(`Reclaim on ${folder}: ${rows.length} sessions${skipped ? ` (${skipped} files skipped: not Claude Code transcripts)` : ''}; classes ${CLASSES.join(', ')}; default protected tail`);
console.log('resident = provider-reported context of the last request (estimated where none); class columns, tombstones and net are estimated tokens');
console.log('payloads = tool results and Write/Edit inputs tombstoned; copies = those plus their toolUseResult mirrors; fork = validated in memory');
console.log('');
console.log(line('session', cols));
for (const r of rows) {
  console.log(
    line(r.name, [
      `${humanTokens(r.resident)}${r.reported ? '' : '*'}`,
      ...CLASSES.map((c) => humanTokens(r.byClass[c])),
      humanTokens(r.tombstones),
      humanTokens(r.net),
      r.resident > 0 ? `${((r.net / r.resident) * 100).toFixed(1)}%` : '-',
      String(r.payloads),
      String(r.copies),
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
    String(total((r) => r.payloads)),
    String(total((r) => r.copies)),
    rows.every((r) => r.valid !== false) ? 'ok' : 'FAIL',
  ]),
);
console.log(`\nsessions ${rows.length} · resident ${humanTokens(resident)} · reclaimable ${humanTokens(total((r) => CLASSES.reduce((n, c) => n + r.byClass[c], 0)))} · tombstones ${humanTokens(total((r) => r.tombstones))} · net reclaimed ${humanTokens(net)} · copies tombstoned ${total((r) => r.copies)}`);
if (rows.some((r) => r.resident > 0 && !r.reported)) console.log('* estimated: no provider-reported usage in the session');

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
process.exitCode = rows.every((r) => r.valid !== false) ? 0 : 1;
