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
