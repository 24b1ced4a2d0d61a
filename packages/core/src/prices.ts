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

/** Model names are matched on their first this many characters: a name from a transcript can be any length. */
const MODEL_NAME_CHARS = 256;
const compiled = new Map<string, RegExp>();

/**
 * Each table's answers by model name. A session prices every reply by its model — tens of thousands
 * of calls at 100 MB, on every append of a live session — and the first match is the same each time
 * for one list of models (a table is a value: nothing changes its models in place).
 */
const found = new WeakMap<readonly ModelPrice[], Map<string, ModelPrice | null>>();
/** Names remembered per table, at most (a hostile transcript may name any number of models). */
const FOUND_PER_TABLE = 1024;

export function findPrice(model: string, table: PriceTable): ModelPrice | null {
  let byName = found.get(table.models);
  if (!byName) {
    byName = new Map();
    found.set(table.models, byName);
  }
  const hit = byName.get(model);
  if (hit !== undefined) return hit;
  const price = matchPrice(model, table);
  if (byName.size < FOUND_PER_TABLE) byName.set(model, price);
  return price;
}

function matchPrice(model: string, table: PriceTable): ModelPrice | null {
  const name = model.slice(0, MODEL_NAME_CHARS);
  for (const m of table.models) {
    let re = compiled.get(m.match);
    if (!re) {
      re = new RegExp(m.match);
      compiled.set(m.match, re);
    }
    if (re.test(name)) return m;
  }
  return null;
}

/**
 * Why a user's `match` pattern could take long on a hostile model name (a transcript names any model it
 * likes), or null. JavaScript's regular expressions backtrack, so only a subset is accepted whose work
 * is bounded on a name of MODEL_NAME_CHARS: literals, escapes, `.`, classes, anchors, groups and
 * alternatives, lookaheads, and quantifiers on a single character or class only (a group may be
 * optional, never repeated),
 * at most two of them unbounded (`*`, `+`, `{n,}`) and eight in all. A plain name (`gpt-5`) is always fine.
 */
export function unboundedPatternProblem(pattern: string): string | null {
  if (pattern.length > 200) return 'is longer than 200 characters';
  let unbounded = 0;
  let quantifiers = 0;
  let afterAtom = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      if (/[1-9k]/.test(pattern[i + 1] ?? '')) return 'uses a back-reference';
      i++;
      afterAtom = true;
      continue;
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) return 'has an unclosed class';
      i = end;
      afterAtom = true;
      continue;
    }
    const quantifier = c === '*' || c === '+' || c === '?' || c === '{';
    if (quantifier) {
      // A group may be optional (`(?:-codex)?`: two ways at most), never repeated.
      const optionalGroup = c === '?' && pattern[i - 1] === ')';
      if (!afterAtom && !optionalGroup) return 'repeats a group or another repetition (only a single character or class may repeat)';
      let bounded = c === '?';
      if (c === '{') {
        const m = /^\{(\d{1,3})(,(\d{0,3}))?\}/.exec(pattern.slice(i));
        if (!m) return 'has a malformed {n,m}';
        bounded = m[2] === undefined || (m[3] ?? '') !== '';
        if (bounded && Number(m[3] ?? m[1]) > 50) return 'repeats more than 50 times';
        i += m[0].length - 1;
      }
      if (pattern[i + 1] === '?') i++;
      quantifiers++;
      if (!bounded) unbounded++;
      afterAtom = false;
      continue;
    }
    // A group, alternative or anchor is not something a quantifier may follow.
    afterAtom = !'()|^$'.includes(c);
    if (c === '(' && pattern[i + 1] === '?') {
      const kind = pattern.slice(i + 2, i + 3);
      if (kind === '<' && /^\(\?<[=!]/.test(pattern.slice(i))) return 'uses a lookbehind';
      if (kind === '<') return 'uses a named group';
      i += kind === ':' || kind === '=' || kind === '!' ? 2 : 1;
    }
  }
  if (unbounded > 2) return 'has more than two unbounded repetitions';
  if (quantifiers > 8) return 'has more than eight repetitions';
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
    const unbounded = unboundedPatternProblem(m.match);
    if (unbounded) return `models[${i}].match ${unbounded}: a pattern must stay quick on any model name: repeat only single characters or classes, at most two of them without a bound`;
    if (typeof m.label !== 'string') return `models[${i}].label must be a string`;
  }
  return null;
}

/** A user table's models take precedence; the base table still prices what it does not name. */
export function mergePriceTables(user: PriceTable, base: PriceTable): PriceTable {
  return { asOf: user.asOf ?? base.asOf, source: user.source ?? 'user price table', models: [...user.models, ...base.models] };
}
