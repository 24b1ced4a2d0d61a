/**
 * What a fork costs under the provider's prompt cache (computed by analysis/economics.ts). A warm
 * cache reads the unchanged prefix of the next request at a fraction of the input price; a fork
 * changes the window at its first tombstone, so everything after it is written to the cache again.
 */
export type CacheTtl = '5m' | '1h';

export interface RequestCosts {
  /** USD of the next request's input (cache reads and writes); null when the model has no price. */
  nextRequestUsd: number | null;
  /** USD of each request after that (the window read from a warm cache). */
  perRequestUsd: number | null;
  /** The same two figures in input-token equivalents (tokens × price multiplier), always known. */
  nextRequestTokens: number;
  perRequestTokens: number;
}

export interface ForkEconomics {
  /** The cache lifetime the session used, from its cache writes; `unknown` is treated as 5 minutes. */
  ttl: CacheTtl | 'unknown';
  /** Time of the last main-thread response (ISO), null when the transcript has none. */
  lastResponseAt: string | null;
  /** The moment the figures are for (ISO): now, or `--at`. */
  at: string;
  /** Until when the cache is warm (ISO); null when it has expired or the time of the last response is unknown. */
  cacheWarmUntil: string | null;
  /** When a cold cache expired (ISO), for "expired 3 h ago"; null when warm or unknown. */
  cacheExpiredAt: string | null;
  /** The window the next request carries: the provider-reported total of the last request (estimated when none). */
  windowTokens: number;
  windowReported: boolean;
  /** Estimated tokens before the first planned change: the prefix the fork can still read from the cache. */
  prefixTokens: number;
  /** Estimated tokens the fork sends less on every request (removed minus tombstones). */
  savedTokensPerRequest: number;
  original: RequestCosts;
  fork: RequestCosts;
  /** After how many requests the fork is cheaper in total: 1 when the cache is cold; null when never. */
  breakEvenRequests: number | null;
  /** One or two sentences: when to fork. */
  advice: string;
  /** The model in plain words: list prices, the TTLs, and which figures are estimated. */
  model: string[];
  price: { label: string | null; asOf: string; inputUsdPerMTok: number | null; readMultiplier: number; writeMultiplier: number };
  /** There is nothing to fork: the plan is empty. */
  empty: boolean;
}
