import type { Usage } from './usage';

/** USD per million tokens. */
export interface ModelPrice {
  /** A regular expression matched against the model name. First match wins. */
  match: string;
  label: string;
  input: number;
  output: number;
  /** Cache writes by lifetime, and cache reads (providers without a cache price them as input). */
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
  /** Higher prices for a request whose prompt (input + cache writes + cache reads) exceeds `aboveTokens`. */
  longPrompt?: { aboveTokens: number; input: number; output: number; cacheWrite5m: number; cacheWrite1h: number; cacheRead: number };
}

/** A dated price table. Each agent's adapter ships its provider's list prices; users may override. */
export interface PriceTable {
  /** The day these prices were checked. */
  asOf: string;
  source: string;
  models: ModelPrice[];
}

export function findPrice(model: string, table: PriceTable): ModelPrice | null {
  for (const m of table.models) if (new RegExp(m.match).test(model)) return m;
  return null;
}

/**
 * The one cost formula: each kind of token at its price. Cache writes without a lifetime split are
 * billed as 5-minute writes (the provider's default).
 */
export function usageCost(u: Usage, price: ModelPrice): number {
  const p = price.longPrompt && u.inputTokens + u.cacheCreationTokens + u.cacheReadTokens > price.longPrompt.aboveTokens ? price.longPrompt : price;
  const split = u.cacheCreation5mTokens + u.cacheCreation1hTokens;
  const w5 = split > 0 ? u.cacheCreation5mTokens : u.cacheCreationTokens;
  const w1 = split > 0 ? u.cacheCreation1hTokens : 0;
  return (u.inputTokens * p.input + u.outputTokens * p.output + w5 * p.cacheWrite5m + w1 * p.cacheWrite1h + u.cacheReadTokens * p.cacheRead) / 1_000_000;
}

/** Checks a user-supplied table; returns an error message or null. */
export function validatePriceTable(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'the price table must be a JSON object';
  const t = raw as Partial<PriceTable>;
  if (!Array.isArray(t.models)) return 'the price table needs a "models" array';
  for (const [i, m] of t.models.entries()) {
    if (typeof m !== 'object' || m === null) return `models[${i}] must be an object`;
    for (const key of ['input', 'output', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead'] as const) {
      if (typeof m[key] !== 'number' || !Number.isFinite(m[key]) || m[key] < 0) return `models[${i}].${key} must be a non-negative number`;
    }
    if (typeof m.match !== 'string') return `models[${i}].match must be a regular expression string`;
    try {
      new RegExp(m.match);
    } catch {
      return `models[${i}].match is not a valid regular expression`;
    }
    if (typeof m.label !== 'string') return `models[${i}].label must be a string`;
  }
  return null;
}

/** A user table's models take precedence; the base table still prices what it does not name. */
export function mergePriceTables(user: PriceTable, base: PriceTable): PriceTable {
  return { asOf: user.asOf ?? base.asOf, source: user.source ?? 'user price table', models: [...user.models, ...base.models] };
}
