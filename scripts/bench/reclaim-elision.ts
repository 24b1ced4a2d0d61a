// `npm run bench:reclaim -- <folder> --with-elision`: what reversible elision adds to the proven classes.
// For each session the real planner runs four times — the proven classes alone, then with `elided` at
// 4k, 8k and 16k tokens (the default ends kept) — and each fork is built and validated in memory
// (nothing is written). Net = tokens removed minus what tombstones, heads, markers and tails keep.
// The bill is the prompt cache's (docs/economics.md): forking a minute after the last response (warm)
// costs the next request's cache rewrite over continuing; a day after (cold), the fork saves from the first.
import { DEFAULT_ELIDE_KEEP, PROVABLE_CLASSES, formatUsd, humanTokens, type DeadClass, type ForkEconomics } from '@glassbox/core';
import { cacheModel, economicsOf, totalCost } from '@glassbox/analysis';
import { previewFork, type ForkPreview } from '@glassbox/store/fork';
import type { AgentRegistry } from '@glassbox/core';
import { agentForFile } from '@glassbox/file-io';
import { projectAfter } from '../corpus-files';
import { pad } from './reclaim-table';

const THRESHOLDS = [4000, 8000, 16000] as const;

interface Run {
  net: number;
  elisions: number;
  elidedNet: number;
  valid: boolean | null;
  warmExtra: number | null;
  cold50: number | null;
}

interface Row {
  name: string;
  resident: number;
  runs: Run[];
}

const usd = (e: ForkEconomics, tokens: number): number | null => (e.price.inputUsdPerMTok === null ? null : (tokens * e.price.inputUsdPerMTok) / 1e6);

function runOf(preview: ForkPreview, path: string, agents: AgentRegistry): Run {
  const { planned, fork, report } = preview;
  const last = planned.economics.lastResponseAt;
  const prices = agentForFile(agents, path).format.prices;
  const at = (ms: number): ForkEconomics | null => (last && planned.plan.actions.length > 0 ? economicsOf(cacheModel(planned.snapshot, { at: new Date(Date.parse(last) + ms), prices }), planned.plan) : null);
  const warm = at(60_000);
  const cold = at(24 * 3600_000);
  const elided = planned.plan.actions.filter((a) => a.class === 'elided');
  return {
    net: planned.plan.totals.netReclaimed,
    elisions: fork?.applied.filter((a) => (a.action as { class?: string }).class === 'elided').length ?? 0,
    elidedNet: elided.reduce((n, a) => n + a.tokensFreed - a.tombstoneTokens, 0),
    valid: report?.ok ?? null,
    warmExtra: warm ? usd(warm, warm.fork.nextRequestTokens - warm.original.nextRequestTokens) : null,
    cold50: cold ? usd(cold, totalCost(cold, 'original', 50) - totalCost(cold, 'fork', 50)) : null,
  };
}

/** The elision tables for the session files of a folder (already deduplicated), named by `label`. */
export function elisionBench(files: readonly string[], label: (path: string) => string, agents: AgentRegistry): { valid: boolean } {
  const rows: Row[] = [];
  // The sizes of the results elision could take (live, unprotected tool results): what the thresholds cut into.
  const sizes: number[] = [];
  for (const path of files) {
    const agent = agentForFile(agents, path);
    const repoRoot = projectAfter(path, 3);
    const plan = (classes: DeadClass[], overTokens?: number): ForkPreview =>
      previewFork(path, { agent, repoRoot, classes, ...(overTokens === undefined ? {} : { elide: { overTokens, keep: DEFAULT_ELIDE_KEEP } }) });
    const proven = plan([...PROVABLE_CLASSES]);
    if (proven.planned.session.problems.some((p) => p.code === 'not_a_transcript' || p.code === 'file_empty')) continue;
    const ctx = proven.planned.snapshot.context;
    for (const seg of proven.planned.snapshot.segments) if (seg.class === 'live' && !seg.protected && !seg.isError && seg.kind === 'tool-result') sizes.push(seg.evictableTokens);
    const runs = [runOf(proven, path, agents), ...THRESHOLDS.map((t) => runOf(plan([...PROVABLE_CLASSES, 'elided'], t), path, agents))];
    rows.push({ name: label(path), resident: ctx.reportedTokens ?? ctx.estimatedTokens, runs });
  }
  const heads = ['resident', 'proven', ...THRESHOLDS.map((t) => `+elide ${t / 1000}k`)];
  const line = (name: string, cells: string[]): string => `${pad(name, 52)} ${cells.map((c) => pad(c, 14, true)).join(' ')}`;
  const cell = (r: Run, i: number): string => `${humanTokens(r.net)}${i > 0 ? ` (${r.elisions})` : ''}${r.valid === false ? ' !' : ''}`;
  console.log('');
  console.log(`Elision (lossy, recoverable) on top of the proven classes: net tokens per session, (number of elisions); ends kept ${DEFAULT_ELIDE_KEEP.chars} chars / ${DEFAULT_ELIDE_KEEP.lines} lines`);
  console.log('');
  console.log(line('session', heads));
  for (const r of rows) console.log(line(r.name, [humanTokens(r.resident), ...r.runs.map(cell)]));
  const total = (i: number): Run => rows.reduce<Run>((a, r) => {
    const x = r.runs[i] as Run;
    return { net: a.net + x.net, elisions: a.elisions + x.elisions, elidedNet: a.elidedNet + x.elidedNet, valid: a.valid === false || x.valid === false ? false : a.valid, warmExtra: (a.warmExtra ?? 0) + (x.warmExtra ?? 0), cold50: (a.cold50 ?? 0) + (x.cold50 ?? 0) };
  }, { net: 0, elisions: 0, elidedNet: 0, valid: true, warmExtra: 0, cold50: 0 });
  const resident = rows.reduce((n, r) => n + r.resident, 0);
  const totals = [0, 1, 2, 3].map(total);
  console.log(line('TOTAL', [humanTokens(resident), ...totals.map(cell)]));
  console.log(line('share of the resident windows', ['', ...totals.map((t) => `${((100 * t.net) / Math.max(1, resident)).toFixed(1)}%`)]));
  console.log(line('sessions with any elision', ['', '', ...totals.slice(1).map((_, i) => String(rows.filter((r) => (r.runs[i + 1] as Run).elisions > 0).length))]));
  sizes.sort((a, b) => b - a);
  const over = (t: number): number => sizes.filter((n) => n > t).length;
  console.log(`live old tool results: ${sizes.length}; over 2k tokens ${over(2000)}, over 4k ${over(4000)}, over 8k ${over(8000)}, over 16k ${over(16000)}; largest ${sizes.slice(0, 5).map(humanTokens).join(', ')}`);
  const money = (v: number | null): string => (v === null ? 'n/a' : formatUsd(v));
  console.log('');
  console.log('Prompt-cache bill (list prices): warm extra = what forking a minute after the last response costs on the next request over continuing;');
  console.log('cold 50 = what the fork saves over the next 50 requests once the cache has expired (a day later)');
  console.log('');
  console.log(line('', ['', ...['proven', ...THRESHOLDS.map((t) => `+elide ${t / 1000}k`)]]));
  console.log(line('warm extra, all sessions', ['', ...totals.map((t) => money(t.warmExtra))]));
  console.log(line('cold 50, all sessions', ['', ...totals.map((t) => money(t.cold50))]));
  return { valid: totals.every((t) => t.valid !== false) };
}
