// Usage per model turn, from the `tokens` the client recorded on each reply, against the client's
// own count of the same run (`gemini -p --output-format json` prints its per-model stats; the harness
// kept them in manifest.json), and the cost at the dated list prices.
import { findPrice, usageCost, type Usage, type UsageRecord } from '@glassbox/core';
import { describe, expect, it } from 'vitest';
import { GEMINI_PRICES } from './prices';
import { parseChatLines } from './parse-lines';
import type { GeminiSession } from './parser';
import { chatFiles, fixture, fixtures, linesOf, mainChat, type Fixture } from '@glassbox/test-support/gemini/corpus';

/** Every reply of a chat once: the window's and those a rewrite let go of. */
function replies(s: GeminiSession): UsageRecord[] {
  const inWindow: UsageRecord[] = [];
  for (const n of s.nodes.values()) if (n.kind === 'assistant' && n.usage && n.messageId) inWindow.push({ messageId: n.messageId, model: n.model ?? 'unknown', line: n.line, usage: n.usage, isSidechain: false });
  return [...inWindow, ...s.prunedUsage];
}

const prompt = (u: Usage) => u.inputTokens + u.cacheReadTokens;

/** The client's own totals over the run's prompts, for one role (main agent or its subagents). */
function clientTotals(f: Fixture, role: 'main' | 'subagent'): { requests: number; prompt: number; output: number; cached: number } {
  const t = { requests: 0, prompt: 0, output: 0, cached: 0 };
  for (const step of f.manifest.steps) {
    for (const m of Object.values(step.stats?.models ?? {})) {
      const r = m.roles ? m.roles[role] : role === 'main' ? { totalRequests: m.api.totalRequests, tokens: m.tokens } : undefined;
      if (!r) continue;
      t.requests += r.totalRequests;
      t.prompt += r.tokens.prompt;
      t.output += r.tokens.candidates + r.tokens.thoughts;
      t.cached += r.tokens.cached;
    }
  }
  return t;
}

function recorded(files: string[]): { replies: number; prompt: number; output: number; cached: number; cost: number } {
  const t = { replies: 0, prompt: 0, output: 0, cached: 0, cost: 0 };
  for (const path of files) {
    for (const r of replies(parseChatLines(linesOf(path), { path }))) {
      t.replies++;
      t.prompt += prompt(r.usage);
      t.output += r.usage.outputTokens;
      t.cached += r.usage.cacheReadTokens;
      const p = findPrice(r.model, GEMINI_PRICES);
      if (p) t.cost += usageCost(r.usage, p);
    }
  }
  return t;
}

describe('usage per model turn equals the client’s own count', () => {
  const exact = fixtures().filter((f) => f.version !== '0.28');
  it.each(exact.map((f) => [`${f.scenario} v${f.version}`, f] as const))('%s', (_n, f) => {
    const main = recorded([mainChat(f)]);
    const client = clientTotals(f, 'main');
    expect({ replies: main.replies, prompt: main.prompt, output: main.output, cached: main.cached }).toEqual({ replies: client.requests, prompt: client.prompt, output: client.output, cached: client.cached });
    expect(main.cost).toBeGreaterThan(0);
  });

  it('a subagent’s replies are in its own chat, and equal the client’s count for the subagent role', () => {
    for (const version of ['0.61', '0.38']) {
      const f = fixture('02-subagent-error', version);
      const sub = f.manifest.sessions.filter((s) => s.kind === 'subagent');
      expect(sub.length, version).toBe(1);
      const files = chatFiles(f).filter((p) => sub.some((s) => p.endsWith(s.file)));
      const t = recorded(files);
      const client = clientTotals(f, 'subagent');
      expect({ replies: t.replies, prompt: t.prompt }, version).toEqual({ replies: client.requests, prompt: client.prompt });
    }
  });

  it('0.28 records one reply for a run of text-less replies: fewer turns and tokens than the client counted', () => {
    for (const f of fixtures().filter((x) => x.version === '0.28')) {
      const main = recorded([mainChat(f)]);
      const client = clientTotals(f, 'main');
      expect(main.replies, f.scenario).toBeLessThan(client.requests);
      expect(main.prompt, f.scenario).toBeLessThan(client.prompt);
    }
  });
});

describe('prices', () => {
  it('prices every model of the corpus, with a date', () => {
    expect(GEMINI_PRICES.asOf).toMatch(/^\d{4}-\d\d-\d\d$/);
    for (const f of fixtures()) expect(findPrice(f.manifest.model, GEMINI_PRICES), f.manifest.model).not.toBeNull();
    expect(findPrice('gemini-2.5-flash-lite', GEMINI_PRICES)?.label).toBe('Gemini 2.5 Flash-Lite');
    expect(findPrice('gemini-3.1-pro-preview', GEMINI_PRICES)?.label).toBe('Gemini 3 Pro (preview)');
  });

  it('a reply of gemini-2.5-pro: uncached prompt at 1.25, cached at 0.125, output and thoughts at 10 per million', () => {
    const u: Usage = { inputTokens: 1000, outputTokens: 100, cacheCreationTokens: 0, cacheReadTokens: 9000, cacheCreation5mTokens: 0, cacheCreation1hTokens: 0 };
    expect(usageCost(u, findPrice('gemini-2.5-pro', GEMINI_PRICES) as NonNullable<ReturnType<typeof findPrice>>)).toBeCloseTo((1000 * 1.25 + 9000 * 0.125 + 100 * 10) / 1e6, 12);
  });

  it('a prompt above 200k tokens (cached included) is priced at the long-prompt tier of the Pro models, and only of them', () => {
    const at = (input: number, cached: number): Usage => ({ inputTokens: input, outputTokens: 1000, cacheCreationTokens: 0, cacheReadTokens: cached, cacheCreation5mTokens: 0, cacheCreation1hTokens: 0 });
    const cost = (model: string, u: Usage) => usageCost(u, findPrice(model, GEMINI_PRICES) as NonNullable<ReturnType<typeof findPrice>>);
    // 200,000 exactly is still the base tier; one token more and every token is dearer.
    expect(cost('gemini-2.5-pro', at(50_000, 150_000))).toBeCloseTo((50_000 * 1.25 + 150_000 * 0.125 + 1000 * 10) / 1e6, 12);
    expect(cost('gemini-2.5-pro', at(50_001, 150_000))).toBeCloseTo((50_001 * 2.5 + 150_000 * 0.25 + 1000 * 15) / 1e6, 12);
    expect(cost('gemini-3.1-pro-preview', at(250_000, 0))).toBeCloseTo((250_000 * 4 + 1000 * 18) / 1e6, 12);
    expect(cost('gemini-2.5-flash', at(250_000, 0))).toBeCloseTo((250_000 * 0.3 + 1000 * 2.5) / 1e6, 12);
  });

  it('the compression fixture’s 600k-token reply is priced at the long-prompt tier', () => {
    const f = fixture('03-compression', '0.61');
    const s = parseChatLines(linesOf(mainChat(f)), { path: mainChat(f) });
    const big = replies(s).filter((r) => prompt(r.usage) > 200_000);
    expect(big.length).toBeGreaterThan(0);
    const p = findPrice(f.manifest.model, GEMINI_PRICES) as NonNullable<ReturnType<typeof findPrice>>;
    for (const r of big) expect(usageCost(r.usage, p)).toBeCloseTo((r.usage.inputTokens * 2.5 + r.usage.cacheReadTokens * 0.25 + r.usage.outputTokens * 15) / 1e6, 12);
  });
});
