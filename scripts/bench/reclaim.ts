// `npm run bench:reclaim -- <folder> [--with-spent]`: what cleaning would reclaim across a folder of
// sessions. For every Claude Code session file under the folder (identical copies counted once;
// subagent files are separate windows and not cleaned on their own), the real planner runs with its
// defaults and the fork is built and validated in memory — nothing is written. A session with a
// `project-after/` folder beside it (the generated corpus) has its working directory mapped there.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { humanTokens, type DeadClass } from '@glassbox/core';
import { previewFork, readSource } from '@glassbox/store/fork';

const args = process.argv.slice(2);
const withSpent = args.includes('--with-spent');
const folder = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const CLASSES: DeadClass[] = withSpent ? ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'] : ['gone', 'stale-drift', 'stale-superseded', 'duplicate'];

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
  const byClass = { gone: 0, 'stale-drift': 0, 'stale-superseded': 0, duplicate: 0, spent: 0 } as Record<DeadClass, number>;
  for (const a of planned.plan.actions) byClass[a.class] += a.tokensFreed;
  const ctx = planned.snapshot.context;
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
process.exitCode = rows.every((r) => r.valid !== false) ? 0 : 1;
