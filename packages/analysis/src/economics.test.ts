import { describe, expect, it } from 'vitest';
import type { EvictionPlan, PlannedAction } from '@glassbox/core';
import { cacheModel, chooseForHorizon, economicsOf, totalCost, type CacheModel } from './economics';
import { planEviction } from './plan';
import { CLAUDE_PRICES as DEFAULT_PRICES } from '@glassbox/adapter-claude-code';
import { findPrice } from './prices';
import { analyzeFile, generatedSession, projectAfter } from '@glassbox/test-support/analysis/fixtures';

/** The example, by hand: a 150k window, 15k evicted, the first change at 30k, Opus 4.5 list prices, 5-minute cache. */
function handModel(warm: boolean): CacheModel {
  const at = new Date('2026-12-01T12:00:00Z');
  return {
    ttl: '5m',
    at,
    lastResponseAt: new Date('2026-12-01T11:58:00Z'),
    warm,
    warmUntil: warm ? new Date('2026-12-01T12:03:00Z') : null,
    expiredAt: warm ? null : new Date('2026-12-01T09:00:00Z'),
    windowTokens: 150_000,
    windowReported: true,
    prefixBefore: new Map([
      ['early', 30_000],
      ['late', 140_000],
    ]),
    read: 0.1,
    write: 1.25,
    price: findPrice('claude-opus-4-5', DEFAULT_PRICES),
    table: DEFAULT_PRICES,
  };
}

function planWith(actions: { segmentId: string; net: number }[]): EvictionPlan {
  return {
    sessionId: 's',
    classes: ['gone'],
    actions: actions.map((a) => ({ segmentId: a.segmentId, tokensFreed: a.net + 40, tombstoneTokens: 40 }) as PlannedAction),
    totals: { reclaimable: 0, tombstoneTokens: 0, netReclaimed: 0, actions: actions.length },
    reasons: [],
    excluded: [],
    protectedTail: 0,
  };
}

describe('prompt-cache economics, computed by hand', () => {
  it('warm cache: the fork re-writes everything after its first change and pays back after 81 requests', () => {
    const e = economicsOf(handModel(true), planWith([{ segmentId: 'early', net: 15_000 }]));
    // Original: 150k read at 0.1 = 15k. Fork: 30k read at 0.1 + 105k written at 1.25 = 3k + 131.25k = 134.25k.
    expect(e.original.nextRequestTokens).toBe(15_000);
    expect(e.fork.nextRequestTokens).toBe(134_250);
    // Every later request: 150k vs 135k read at 0.1 = 1.5k saved.
    expect(e.original.perRequestTokens - e.fork.perRequestTokens).toBe(1_500);
    // 119.25k extra / 1.5k per request = 79.5 → after the 80th later request: 81 requests in all.
    expect(e.breakEvenRequests).toBe(81);
    // Opus 4.5: $5 per million input tokens.
    expect(e.original.nextRequestUsd).toBeCloseTo(0.075, 10);
    expect(e.fork.nextRequestUsd).toBeCloseTo(0.67125, 10);
    expect(e.prefixTokens).toBe(30_000);
    expect(e.advice).toContain('cache warm until 12:03 UTC');
    expect(totalCost(e, 'fork', 81)).toBeLessThan(totalCost(e, 'original', 81));
    expect(totalCost(e, 'fork', 80)).toBeGreaterThan(totalCost(e, 'original', 80));
  });

  it('cold cache: both write the whole window, so the fork is cheaper from the first request', () => {
    const e = economicsOf(handModel(false), planWith([{ segmentId: 'early', net: 15_000 }]));
    expect(e.original.nextRequestTokens).toBe(187_500);
    expect(e.fork.nextRequestTokens).toBe(168_750);
    expect(e.breakEvenRequests).toBe(1);
    expect(e.cacheWarmUntil).toBeNull();
    expect(e.advice).toMatch(/^the cache expired 3 h ago: forking now is cheaper from the first request/);
  });

  it('an empty plan never pays back and says so', () => {
    const e = economicsOf(handModel(true), planWith([]));
    expect(e.breakEvenRequests).toBeNull();
    expect(e.empty).toBe(true);
  });

  it('--horizon: keeps to late evictions over a short horizon, takes every eviction over a long one', () => {
    const m = handModel(true);
    const candidates = [
      { segmentId: 'early', net: 15_000 },
      { segmentId: 'late', net: 5_000 },
    ];
    // One request: any fork costs more than continuing (a re-write is never paid back at once).
    expect(chooseForHorizon(m, candidates, 1)).toEqual([]);
    // 30 requests: the late eviction re-writes 5k·1.25 and saves 0.5k per request; the early one cannot pay back.
    expect(chooseForHorizon(m, candidates, 30).map((e) => e.segmentId)).toEqual(['late']);
    // 1000 requests: everything.
    expect(chooseForHorizon(m, candidates, 1000).map((e) => e.segmentId).sort()).toEqual(['early', 'late']);
    // Cold: every eviction, at once.
    expect(chooseForHorizon(handModel(false), candidates, 1).map((e) => e.segmentId).sort()).toEqual(['early', 'late']);
  });
});

describe('prompt-cache economics from a real transcript', () => {
  const snap = analyzeFile(generatedSession('01-superseded-reads'), { repoRoot: projectAfter('01-superseded-reads'), protectTail: 0 });
  const last = snap.turns.at(-1)?.timestamp ?? '';

  it('reads the cache lifetime and the time of the last response from the usage', () => {
    const m = cacheModel(snap, { at: new Date(Date.parse(last) + 60_000), prices: DEFAULT_PRICES });
    expect(m.ttl).toBe('5m');
    expect(m.lastResponseAt?.toISOString()).toBe(new Date(last).toISOString());
    expect(m.warm).toBe(true);
    expect(m.warmUntil?.getTime()).toBe(Date.parse(last) + 5 * 60_000);
    const later = cacheModel(snap, { at: new Date(Date.parse(last) + 3 * 3600_000), prices: DEFAULT_PRICES });
    expect(later.warm).toBe(false);
    expect(later.expiredAt?.getTime()).toBe(Date.parse(last) + 5 * 60_000);
  });

  it('puts the prefix before the first planned change, and the plan under a horizon pays less over it', () => {
    const at = new Date(Date.parse(last) + 60_000);
    const m = cacheModel(snap, { at, prices: DEFAULT_PRICES });
    const plan = planEviction(snap, { minimumSavings: 0 });
    const e = economicsOf(m, plan);
    const first = Math.min(...plan.actions.map((a) => snap.segments.findIndex((s) => s.id === a.segmentId)));
    const before = snap.segments.slice(0, first).reduce((n, s) => n + s.tokens, snap.context.unattributedTokens);
    expect(e.prefixTokens).toBe(Math.min(before, e.windowTokens - e.savedTokensPerRequest));
    for (const n of [1, 10, 100]) {
      const h = planEviction(snap, { minimumSavings: 0, horizon: { requests: n, cache: m } });
      const he = economicsOf(m, h);
      const cost = (x: typeof e): number => (x.empty ? totalCost(x, 'original', n) : totalCost(x, 'fork', n));
      expect(cost(he)).toBeLessThanOrEqual(Math.min(cost(e), totalCost(e, 'original', n)) + 1);
      for (const x of h.excluded.filter((x) => x.reason === 'horizon-cost')) expect(plan.actions.some((a) => a.segmentId === x.segmentId)).toBe(true);
    }
  });
});
