/** Provider-reported token usage of one API response. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  /** Split of cacheCreationTokens by cache lifetime, when the provider reports it. */
  cacheCreation5mTokens: number;
  cacheCreation1hTokens: number;
}

/**
 * A token count as a provider reports it: a whole number, zero or more. Anything else (a negative
 * count in an edited or damaged transcript, a fraction, text) is not a count: `bad` is set and 0 is
 * taken, so no cost is ever negative, and the adapter reports the record (problem `invalid_usage`).
 */
export function tokenCount(raw: unknown, bad: { invalid: boolean }): number {
  if (raw === undefined || raw === null) return 0;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return raw;
  bad.invalid = true;
  return 0;
}

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  cacheCreation5mTokens: 0,
  cacheCreation1hTokens: 0,
});

/** Tokens the request carried into the model: the size of the context window at that request. */
export function contextTokens(u: Usage): number {
  return u.inputTokens + u.cacheCreationTokens + u.cacheReadTokens;
}

/** The larger of each figure: one response's usage, when the client wrote it on several records. */
export function maxUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: Math.max(a.inputTokens, b.inputTokens),
    outputTokens: Math.max(a.outputTokens, b.outputTokens),
    cacheCreationTokens: Math.max(a.cacheCreationTokens, b.cacheCreationTokens),
    cacheReadTokens: Math.max(a.cacheReadTokens, b.cacheReadTokens),
    cacheCreation5mTokens: Math.max(a.cacheCreation5mTokens, b.cacheCreation5mTokens),
    cacheCreation1hTokens: Math.max(a.cacheCreation1hTokens, b.cacheCreation1hTokens),
  };
}
