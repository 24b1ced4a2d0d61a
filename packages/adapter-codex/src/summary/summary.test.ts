import { analyzeSession, computeCost, type AnalysisPorts } from '@glassbox/analysis';
import { findPrice, usageCost, type MessageUsage, type SummaryState } from '@glassbox/core';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexFormat } from '../agent';
import { readRolloutFile } from '../node/read-file';
import { CODEX_PRICES } from '../prices';
import { MOONMIND_057, allRollouts, firstRollout, linesOf } from '@glassbox/test-support/codex/corpus';

const ports: AnalysisPorts = { repo: { kind: () => 'missing', readText: () => null }, hash: (t) => t, now: () => new Date('2026-12-01T12:00:00Z') };

interface Summary {
  state: SummaryState;
  messages: Map<string, MessageUsage>;
  search: string;
}

/** The summary of `lines` in passes that end at the given line counts, each resumed from the last one's state. */
function summarise(lines: readonly string[], cuts: readonly number[]): Summary {
  let state: SummaryState | null = null;
  const messages = new Map<string, MessageUsage>();
  const search: string[] = [];
  let from = 0;
  for (const to of [...cuts, lines.length]) {
    const s = codexFormat.createSummarizer(state === null ? null : structuredClone(state), false);
    for (let i = from; i < to; i++) s.line(lines[i] as string, i + 1);
    const pass = s.finish();
    for (const m of pass.messages) messages.set(m.key, m);
    search.push(pass.searchText);
    state = JSON.parse(JSON.stringify(pass.state)) as SummaryState;
    from = to;
  }
  return { state: state as SummaryState, messages, search: search.join('\n') };
}

function costOf(messages: Iterable<MessageUsage>): number {
  let total = 0;
  for (const m of messages) {
    const p = findPrice(m.model ?? '', CODEX_PRICES);
    if (!p) throw new Error(`no price for ${m.model}`);
    total += usageCost({ inputTokens: m.input, outputTokens: m.output, cacheCreationTokens: 0, cacheReadTokens: m.cacheRead, cacheCreation5mTokens: 0, cacheCreation1hTokens: 0 }, p);
  }
  return total;
}

describe('the list summary reads a rollout as the parser does (every rollout in the corpus)', () => {
  it.each(allRollouts().map((p) => [basename(p), p]))('%s: turns, context, cost and identity equal the analysis’s, in one pass or resumed', (_n, path) => {
    const session = readRolloutFile(path);
    const snapshot = analyzeSession(session, ports);
    const prompts = session.order.filter((u) => session.nodes.get(u)?.kind === 'prompt').length;
    const cost = computeCost(session, [], CODEX_PRICES);
    const lines = linesOf(path);
    const n = lines.length;
    for (const cuts of [[], [1], [Math.floor(n / 3), Math.floor((2 * n) / 3)], [n - 1]]) {
      const { state, messages } = summarise(lines, cuts);
      expect({ cuts, turns: state.turns, context: state.contextTokens, requests: messages.size }).toEqual({
        cuts,
        turns: prompts,
        context: snapshot.context.reportedTokens,
        requests: cost.total.responses,
      });
      expect(costOf(messages.values())).toBeCloseTo(cost.total.cost as number, 9);
      expect(state.sessionId).toBe(session.id);
      expect(state.cwd).toBe(session.cwd);
      expect(state.version).toBe(session.version);
      expect(state.firstPrompt).toBe(session.firstPrompt);
      expect(state.firstTs).toBe(session.firstTimestamp);
      expect(state.lastTs).toBe(session.lastTimestamp);
      expect(state.invalidLines).toBe(0);
    }
  });

  it('searches prompts, commands and patched files', () => {
    const { search } = summarise(linesOf(firstRollout('01-shell-reads-and-patch')), []);
    expect(search).toContain('Add a `due-soon` command');
    expect(search).toContain("sed -n '45,70p' src/store.mjs");
    expect(search).toContain('src/format.mjs');
  });

  it('after a compaction, there is no reported context until a reply in the new window reports one (03)', () => {
    const lines = linesOf(firstRollout('03-long-session-compaction'));
    const at = lines.findIndex((l) => l.includes('"type":"compacted"'));
    expect(at).toBeGreaterThan(0);
    // Just before it, the compaction request itself (its reply is the summary) is the last reported.
    expect(summarise(lines.slice(0, at), []).state.contextTokens).toBe(23288);
    expect(summarise(lines.slice(0, at + 1), []).state.contextTokens).toBeNull();
  });

  it('reports a line that is not JSON with its number, and reads on', () => {
    const lines = linesOf(firstRollout('04-read-grammar-and-fork'));
    const broken = [...lines.slice(0, 9), lines[9]!.slice(0, 40), ...lines.slice(10)];
    const whole = summarise(lines, []).state;
    const { state } = summarise(broken, []);
    expect([state.invalidLines, state.firstInvalidLine]).toEqual([1, 10]);
    expect(state.turns).toBe(whole.turns);
  });

  it('refuses a file whose first record is not a Codex session header, and counts nothing after it', () => {
    const lines = linesOf(firstRollout('04-read-grammar-and-fork')).slice(1);
    const { state, messages } = summarise(lines, []);
    expect([state.invalidLines, state.firstInvalidLine, state.turns, messages.size]).toEqual([1, 1, 0, 0]);
  });
});

describe('the quick look: head and closing lines only', () => {
  it.each(allRollouts().map((p) => [basename(p), p]))('%s: the tail gives the full pass’s context', (_n, path) => {
    const lines = linesOf(path);
    const full = summarise(lines, []).state;
    const head = codexFormat.createSummarizer(null, false);
    let i = 0;
    while (i < lines.length && head.state.firstPrompt === null) head.line(lines[i] as string, ++i);
    const state = head.finish().state;
    // The smallest window of closing lines that decides, as the store grows its window.
    let tail = structuredClone(state);
    let k = 8;
    while (!codexFormat.readTail(lines.slice(lines.length - k), tail) && k < lines.length - i) {
      k *= 2;
      tail = structuredClone(state);
    }
    expect({ context: tail.contextTokens, model: tail.lastModel, lastTs: tail.lastTs }).toEqual({ context: full.contextTokens, model: full.lastModel, lastTs: full.lastTs });
  });

  it('skips a repeated count (0.57 writes each count twice, the repeat after the reply’s items)', () => {
    const lines = linesOf(MOONMIND_057);
    const fresh = () => codexFormat.createSummarizer(null, false).finish().state;
    // From line 721: a count, the next reply's items (722-723), the count's repeat (726), the last count (729).
    const state = fresh();
    expect(codexFormat.readTail(lines.slice(720), state)).toBe(true);
    expect(state.contextTokens).toBe(82511);
    // From line 724 the repeat is the first count seen: whether the reply open there had items is
    // not in the window, so the last count decides nothing and the caller reads further back.
    const short = fresh();
    expect(codexFormat.readTail(lines.slice(723), short)).toBe(false);
    expect(short.contextTokens).toBeNull();
  });
});
