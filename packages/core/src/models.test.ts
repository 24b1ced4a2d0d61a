import { describe, expect, it } from 'vitest';
import { catalogPriceTable, findModel, type ModelCatalogue } from './models';
import { findPrice, usageCost } from './prices';
import { ZERO_USAGE } from './usage';

const prices = { input: 4, output: 20, cacheWrite5m: 5, cacheWrite1h: 8, cacheRead: 0.2 };
const CATALOGUE: ModelCatalogue = {
  asOf: '2026-12-02',
  source: 'test',
  models: [
    { id: 'claude-opus-5-5', label: 'Claude Opus 5.5', aliases: [], contextWindow: 1_000_000, longContextWindow: null, prices, keepsReasoning: true },
    { id: 'claude-sonnet-4-0', label: 'Claude Sonnet 4', aliases: ['claude-sonnet-4-20250514'], contextWindow: 200_000, longContextWindow: 1_000_000, prices: { ...prices, input: 3 }, keepsReasoning: true },
    {
      id: 'claude-haiku-5-5',
      label: 'Claude Haiku 5.5',
      aliases: [],
      contextWindow: 1_000_000,
      longContextWindow: null,
      prices: { input: 0.1, output: 0.5, cacheWrite5m: 0.125, cacheWrite1h: 0.2, cacheRead: 0.01 },
      longPromptPrices: { input: 0.5, output: 2.5, cacheWrite5m: 0.625, cacheWrite1h: 1, cacheRead: 0.05, aboveTokens: 100_000 },
      keepsReasoning: true,
    },
  ],
};

describe('a dated model catalogue', () => {
  it('finds a model by its id, an alias, a dated or a variant spelling, and nothing else', () => {
    expect(findModel(CATALOGUE, 'claude-opus-5-5')?.label).toBe('Claude Opus 5.5');
    expect(findModel(CATALOGUE, 'claude-opus-5-5[1m]')?.id).toBe('claude-opus-5-5');
    expect(findModel(CATALOGUE, 'claude-sonnet-4-20250514')?.id).toBe('claude-sonnet-4-0');
    expect(findModel(CATALOGUE, 'claude-opus-5')).toBeNull();
    expect(findModel(CATALOGUE, 'claude-opus-5-5-fast')).toBeNull();
    expect(findModel(CATALOGUE, 'claude-opus-9-9')).toBeNull();
  });

  it('prices exactly its own models: no other model borrows a price', () => {
    const table = catalogPriceTable(CATALOGUE);
    expect(findPrice('claude-opus-5-5', table)?.label).toBe('Claude Opus 5.5');
    expect(findPrice('claude-sonnet-4-20250514', table)?.input).toBe(3);
    expect(findPrice('claude-opus-5', table)).toBeNull();
    expect(findPrice('claude-opus-5-50', table)).toBeNull();
  });

  it('prices a request past the long-prompt threshold at the higher prices (prompt = input + cache writes + reads)', () => {
    const haiku = findPrice('claude-haiku-5-5', catalogPriceTable(CATALOGUE));
    if (!haiku) throw new Error('no price');
    const small = { ...ZERO_USAGE, inputTokens: 1_000, cacheReadTokens: 99_000, outputTokens: 1_000 };
    const large = { ...small, cacheCreationTokens: 1_001, cacheCreation5mTokens: 1_001 };
    // (1000×0.1 + 99000×0.01 + 1000×0.5) / 1e6, then the same tokens and 1001 writes at the long-prompt prices
    expect(usageCost(small, haiku)).toBeCloseTo(0.00159, 10);
    expect(usageCost(large, haiku)).toBeCloseTo((1000 * 0.5 + 99_000 * 0.05 + 1000 * 2.5 + 1001 * 0.625) / 1e6, 10);
  });
});
