/** USD per million tokens. */
export interface ModelPrice {
  /** A regular expression matched against the model name. First match wins. */
  match: string;
  label: string;
  input: number;
  output: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
}

export interface PriceTable {
  /** The day these prices were checked. */
  asOf: string;
  source: string;
  models: ModelPrice[];
}

/**
 * Anthropic's list prices (standard tier, up to 200k context). Cache writes cost 1.25× input for
 * the 5-minute cache and 2× for the 1-hour cache; cache reads 0.1×. Override with --prices FILE.
 */
export const DEFAULT_PRICES: PriceTable = {
  asOf: '2026-11-30',
  source: 'Anthropic list prices per MTok (standard tier, ≤200k context); override with --prices FILE',
  models: [
    price('claude-opus-4-(?:[5-9]|[1-9]\\d)(?!\\d)', 'Claude Opus 4.5+', 5, 25),
    price('opus-4|claude-3-opus|opus', 'Claude Opus 4/4.1, 3', 15, 75),
    price('sonnet', 'Claude Sonnet', 3, 15),
    price('haiku-4', 'Claude Haiku 4.5', 1, 5),
    price('3-5-haiku|haiku-3-5', 'Claude Haiku 3.5', 0.8, 4),
    price('haiku', 'Claude Haiku 3', 0.25, 1.25),
  ],
};

function price(match: string, label: string, input: number, output: number): ModelPrice {
  return { match, label, input, output, cacheWrite5m: input * 1.25, cacheWrite1h: input * 2, cacheRead: input * 0.1 };
}

/** Checks a user-supplied table; returns an error message or null. */
export function validatePriceTable(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return 'the price table must be a JSON object';
  const t = raw as Partial<PriceTable>;
  if (!Array.isArray(t.models)) return 'the price table needs a "models" array';
  for (const [i, m] of t.models.entries()) {
    for (const key of ['input', 'output', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead'] as const) {
      if (typeof m?.[key] !== 'number' || m[key] < 0) return `models[${i}].${key} must be a non-negative number`;
    }
    if (typeof m.match !== 'string') return `models[${i}].match must be a regular expression string`;
    try {
      new RegExp(m.match);
    } catch {
      return `models[${i}].match is not a valid regular expression`;
    }
  }
  return null;
}

/** A user table's models take precedence; the defaults still price what it does not name. */
export function mergePriceTables(user: PriceTable, base: PriceTable = DEFAULT_PRICES): PriceTable {
  return { asOf: user.asOf ?? base.asOf, source: user.source ?? 'user price table', models: [...user.models, ...base.models] };
}

export function findPrice(model: string, table: PriceTable): ModelPrice | null {
  for (const m of table.models) if (new RegExp(m.match).test(model)) return m;
  return null;
}
