import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { computeCost, findPrice, validatePriceTable } from '@glassbox/analysis';
import { describe, expect, it } from 'vitest';
import { codexFormat } from './agent';
import { codexLocator } from './node/locator';
import { readRolloutFile } from './node/read-file';
import type { CodexSession } from './session-types';
import { CODEX_PRICES } from './prices';
import { MOONMIND_058, REPO_ROOT, allRollouts, firstRollout, linesOf, scenarioRollouts } from '@glassbox/test-support/codex/corpus';

describe('the OpenAI price table', () => {
  it('is valid in the overridable format and prices every model in the corpus', () => {
    expect(validatePriceTable(CODEX_PRICES)).toBeNull();
    expect(findPrice('gpt-5.5', CODEX_PRICES)?.label).toBe('GPT-5.5');
    expect(findPrice('gpt-5.1-codex', CODEX_PRICES)?.label).toBe('GPT-5 / 5.1 / Codex');
    expect(findPrice('gpt-5-codex', CODEX_PRICES)?.label).toBe('GPT-5 / 5.1 / Codex');
    expect(findPrice('gpt-5.1-codex-mini', CODEX_PRICES)?.label).toBe('GPT-5.1-Codex mini');
    expect(findPrice('gpt-5.3-codex', CODEX_PRICES)?.label).toBe('GPT-5.2 / 5.3-Codex');
    expect(findPrice('gpt-5.3-codex-spark', CODEX_PRICES)).toBeNull();
    expect(findPrice('o3', CODEX_PRICES)).toBeNull();
  });

  it('gives a hand-computed cost (04, five gpt-5.5 requests)', () => {
    const s = readRolloutFile(firstRollout('04-read-grammar-and-fork'));
    expect(s.requests.map((r) => [r.input, r.cachedInput, r.output])).toEqual([
      [9180, 0, 62],
      [9907, 9088, 45],
      [10492, 9856, 43],
      [11026, 10368, 77],
      [12039, 11008, 12],
    ]);
    // uncached input 9180 + 819 + 636 + 658 + 1031 = 12 324 at $5/M    = $0.061 620
    // cached input   0 + 9088 + 9856 + 10 368 + 11 008 = 40 320 at $0.50/M = $0.020 160
    // output         62 + 45 + 43 + 77 + 12 = 239 at $30/M            = $0.007 170
    const c = computeCost(s, [], CODEX_PRICES);
    expect(c.total.usage).toMatchObject({ inputTokens: 12324, cacheReadTokens: 40320, outputTokens: 239, cacheCreationTokens: 0 });
    expect(c.total.responses).toBe(5);
    expect(c.total.cost).toBeCloseTo(0.08895, 9);
  });

  it('gives a hand-computed cost for a 2025 rollout (0.58, gpt-5.1-codex)', () => {
    const c = computeCost(readRolloutFile(MOONMIND_058), [], CODEX_PRICES);
    // 45 265 × $1.25/M + 1 019 264 × $0.125/M + 25 658 × $10/M
    expect(c.total.cost).toBeCloseTo((45265 * 1.25 + 1019264 * 0.125 + 25658 * 10) / 1e6, 9);
  });
});

interface CcTotals { inputTokens: number; cacheReadTokens: number; outputTokens: number; reasoningOutputTokens: number; costUSD: number }

/**
 * ccusage 20.0.24 on one rollout, offline, in a Codex home of its own that also holds the other
 * rollouts of its session folder: ccusage finds a forked thread's parent there and leaves the copied
 * parent usage out by matching it (without the parent it guesses from timestamps, which the mock's
 * instant replies defeat). The figures are the rollout's own session's.
 */
function ccusage(path: string): { sessions: number; totals: CcTotals } {
  const home = mkdtempSync(join(tmpdir(), 'codex-cc-'));
  mkdirSync(join(home, 'sessions/2026/01/01'), { recursive: true });
  const siblings = readdirSync(dirname(path)).filter((n) => n.startsWith('rollout-') && n.endsWith('.jsonl'));
  for (const n of siblings) copyFileSync(join(dirname(path), n), join(home, 'sessions/2026/01/01', n));
  const cli = join(REPO_ROOT, 'node_modules/ccusage/src/cli.js');
  const r = spawnSync(process.execPath, [cli, 'codex', 'session', '--json', '--offline'], { env: { ...process.env, CODEX_HOME: home }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { sessions: (CcTotals & { sessionId: string })[] };
  const own = out.sessions.filter((x) => x.sessionId.endsWith(basename(path, '.jsonl')));
  return { sessions: own.length, totals: own[0] ?? { inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, reasoningOutputTokens: 0, costUSD: 0 } };
}

describe('totals against ccusage 20.0.24 (codex session --json --offline), every rollout in the corpus', () => {
  const forkFile = scenarioRollouts('04-read-grammar-and-fork')[1] as string;

  it.each(allRollouts().filter((p) => p !== forkFile).map((p) => [basename(p), p]))('%s: equal, through the agent seam', (_name, path) => {
    // As the store and the CLI price a session: the locator loads it, the format gives the prices.
    const { session: s, subagents } = codexLocator.load(path);
    const ours = computeCost(s as CodexSession, subagents, codexFormat.prices);
    const cc = ccusage(path);
    expect(cc.sessions).toBe(1);
    expect(ours.total.usage.inputTokens).toBe(cc.totals.inputTokens);
    expect(ours.total.usage.cacheReadTokens).toBe(cc.totals.cacheReadTokens);
    expect(ours.total.usage.outputTokens).toBe(cc.totals.outputTokens);
    expect((s as CodexSession).requests.reduce((n, r) => n + r.reasoningOutput, 0)).toBe(cc.totals.reasoningOutputTokens);
    expect(ours.total.cost).toBeCloseTo(cc.totals.costUSD, 6);
  });

  it('a `codex exec fork` file: ccusage leaves it out; its own requests are counted here', () => {
    const s = readRolloutFile(forkFile);
    expect(s.forkedFromId).not.toBeNull();
    expect(ccusage(forkFile).sessions).toBe(0);
    // The fork's token_count totals run on from its parent's, but last_token_usage is the fork's own
    // four requests: they were made and billed, so they count.
    expect(s.requests).toHaveLength(4);
    expect(computeCost(s, [], CODEX_PRICES).total.cost).toBeCloseTo((13177 * 5 + 37376 * 0.5 + 58 * 30) / 1e6, 9);
  });
});

describe('a forked thread counts its own usage, not the copy of its parent’s history it starts with', () => {
  const [parent, child] = scenarioRollouts('06-subagent-fork-context') as [string, string];

  it('06 (Codex 0.118, fork_context): the copied token_count events are the parent’s requests; the thread made one', () => {
    const lines = linesOf(child);
    // The copy: the parent's header on line 2, its items and counts, ended by the spawn output.
    expect(JSON.parse(lines[1] as string)).toMatchObject({ type: 'session_meta', payload: { id: JSON.parse(lines[0] as string).payload.forked_from_id } });
    const end = lines.findIndex((l) => l.includes('You are the newly spawned agent.'));
    const copiedCounts = lines.slice(1, end + 1).filter((l) => l.includes('"type":"token_count"') && l.includes('"last_token_usage"'));
    expect(copiedCounts.length).toBeGreaterThan(0);
    // Every copied count is one the parent's own file has.
    const parentLines = linesOf(parent);
    for (const l of copiedCounts) expect(parentLines.some((p) => p.slice(p.indexOf('"payload"')) === l.slice(l.indexOf('"payload"')))).toBe(true);
    const s = readRolloutFile(child);
    expect(s.requests.map((r) => [r.line, r.input, r.cachedInput, r.output])).toEqual([[32, 8538, 0, 1]]);
    expect(computeCost(s, [], CODEX_PRICES).total.usage).toMatchObject({ inputTokens: 8538, cacheReadTokens: 0, outputTokens: 1 });
    // The copied history is still the thread's window: its model read it.
    expect(s.order.some((u) => s.nodes.get(u)?.promptText?.startsWith('Read the formatter and the store'))).toBe(true);
    expect(s.problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });

  it('05 (Codex 0.169, multi-agent v2): records numbered below subagent_history_start_ordinal are the copy', () => {
    const [, sub] = scenarioRollouts('05-subagent-forked-thread') as [string, string];
    const meta = JSON.parse(linesOf(sub)[0] as string).payload as { subagent_history_start_ordinal: number };
    expect(meta.subagent_history_start_ordinal).toBe(21);
    const s = readRolloutFile(sub);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]?.line).toBeGreaterThan(21);
    expect(s.order.some((u) => s.nodes.get(u)?.promptText?.startsWith('Read the formatter and the store'))).toBe(true);
  });
});
