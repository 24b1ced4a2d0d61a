import { describe, expect, it } from 'vitest';
import { findPrice, mergePriceTables, usageCost, validatePriceTable, type PriceTable } from './prices';
import { ZERO_USAGE } from './usage';

const TABLE: PriceTable = {
  asOf: '2026-11-30',
  source: 'test',
  models: [
    { match: 'opus-4-8', label: 'Opus 4.8', input: 5, output: 25, cacheWrite5m: 6.25, cacheWrite1h: 10, cacheRead: 0.5 },
    { match: 'sonnet', label: 'Sonnet', input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3 },
  ],
};

describe('the one cost formula', () => {
  it('prices each kind of token at its rate (checked by hand)', () => {
    // The first request of a real session (fixture 01): 1,520 input, 17,358 written to the 5-minute
    // cache, 90 output, on Opus 4.8 = (1520×5 + 17358×6.25 + 90×25) / 1e6 = 0.1183375 USD.
    const usage = { ...ZERO_USAGE, inputTokens: 1520, cacheCreationTokens: 17358, cacheCreation5mTokens: 17358, outputTokens: 90 };
    expect(usageCost(usage, TABLE.models[0]!)).toBeCloseTo(0.1183375, 10);
  });

  it('bills 1-hour cache writes at their own rate, and reads at the read rate', () => {
    // 10,000 written for an hour, 4,000 for 5 minutes, 50,000 read, 3 input, 200 output on Sonnet:
    // (10000×6 + 4000×3.75 + 50000×0.3 + 3×3 + 200×15) / 1e6 = 0.093009
    const usage = { ...ZERO_USAGE, inputTokens: 3, outputTokens: 200, cacheCreationTokens: 14000, cacheCreation5mTokens: 4000, cacheCreation1hTokens: 10000, cacheReadTokens: 50000 };
    expect(usageCost(usage, TABLE.models[1]!)).toBeCloseTo(0.093009, 10);
  });

  it('takes cache writes without a lifetime split as 5-minute writes', () => {
    const usage = { ...ZERO_USAGE, cacheCreationTokens: 1_000_000 };
    expect(usageCost(usage, TABLE.models[1]!)).toBeCloseTo(3.75, 10);
  });
});

describe('price tables', () => {
  it('finds the first matching model, or none', () => {
    expect(findPrice('claude-opus-4-8', TABLE)?.label).toBe('Opus 4.8');
    expect(findPrice('claude-sonnet-4-6', TABLE)?.label).toBe('Sonnet');
    expect(findPrice('gpt-5.5', TABLE)).toBeNull();
  });

  it('validates a user table and says what is wrong', () => {
    expect(validatePriceTable(TABLE)).toBeNull();
    expect(validatePriceTable(null)).toMatch(/JSON object/);
    expect(validatePriceTable([])).toMatch(/JSON object/);
    expect(validatePriceTable({ asOf: 'x' })).toMatch(/"models" array/);
    const bad = (patch: object) => validatePriceTable({ ...TABLE, models: [{ ...TABLE.models[0], ...patch }] });
    expect(bad({ input: -1 })).toBe('models[0].input must be a non-negative number');
    expect(bad({ cacheRead: 'cheap' })).toBe('models[0].cacheRead must be a non-negative number');
    expect(bad({ output: Number.NaN })).toBe('models[0].output must be a non-negative number');
    expect(bad({ match: '(' })).toBe('models[0].match is not a valid regular expression');
    expect(bad({ match: 3 })).toBe('models[0].match must be a regular expression string');
    expect(bad({ label: undefined })).toBe('models[0].label must be a string');
  });

  it("lets a user's models win and keeps the base table's for the rest", () => {
    const user: PriceTable = { asOf: '2027-01-01', source: 'mine', models: [{ ...TABLE.models[1]!, input: 1 }] };
    const merged = mergePriceTables(user, TABLE);
    expect(findPrice('claude-sonnet-4-6', merged)?.input).toBe(1);
    expect(findPrice('claude-opus-4-8', merged)?.input).toBe(5);
    expect(merged.asOf).toBe('2027-01-01');
  });
});
