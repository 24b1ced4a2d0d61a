import type { ModelPrice, PriceTable } from './prices';

/**
 * What an agent's client knows of the models it talks to, as data: one dated catalogue per adapter
 * (the adapter copies it from the client's own tables). Context windows, prices and the reasoning rule
 * come from here, so a model the catalogue does not name is unknown — never priced or sized like
 * another one.
 */
export interface ModelCatalogue {
  /** The day the entries were checked against the client. */
  asOf: string;
  /** Where they come from (the client and version whose tables they copy). */
  source: string;
  models: readonly ModelInfo[];
}

/** USD per million tokens, by token class. */
export interface TokenPrices {
  input: number;
  output: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
}

export interface ModelInfo {
  /** The id the catalogue knows it by (`claude-opus-5-5`). */
  id: string;
  /** For people: "Claude Opus 5.5". */
  label: string;
  /** Other ids the provider reports for the same model (dated ids, short forms). */
  aliases: readonly string[];
  /** The window the client gives it, in tokens. */
  contextWindow: number;
  /** A larger window the client can give it (a long-context variant the person chooses), or null. */
  longContextWindow: number | null;
  prices: TokenPrices;
  /** Higher prices for a request whose prompt is larger than `aboveTokens`, when the model has them. */
  longPromptPrices?: TokenPrices & { aboveTokens: number };
  /**
   * Whether the client sends the model's reasoning back to it in later requests (reasoning of another
   * model is never sent).
   */
  keepsReasoning: boolean;
}

/** A model id as catalogues compare it: lower case, without a variant suffix (`[1m]`) or a date (`-20250514`). */
function normalised(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/\[[0-9a-z]+\]$/, '');
}

const DATED = /-\d{8}$/;

/** The catalogue's entry for a model id (its id, an alias, or either with a date), or null: unknown. */
export function findModel(catalogue: ModelCatalogue, model: string): ModelInfo | null {
  const m = normalised(model);
  const undated = m.replace(DATED, '');
  for (const info of catalogue.models) {
    if (info.id === m || info.id === undated || info.aliases.includes(m) || info.aliases.includes(undated)) return info;
  }
  return null;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The catalogue's prices as a price table: one entry per model, matching exactly its ids (with or
 * without a date or a variant suffix), so a user's table (`--prices`) still merges over it.
 */
export function catalogPriceTable(catalogue: ModelCatalogue): PriceTable {
  const models: ModelPrice[] = catalogue.models.map((info) => {
    const ids = [info.id, ...info.aliases].map(escape).join('|');
    const price: ModelPrice = { match: `^(?:${ids})(?:-\\d{8})?(?:\\[[0-9a-z]+\\])?$`, label: info.label, ...info.prices };
    if (info.longPromptPrices) price.longPrompt = { ...info.longPromptPrices };
    return price;
  });
  return { asOf: catalogue.asOf, source: catalogue.source, models };
}
