import type { ModelPrice, PriceTable } from '@glassbox/core';

/** Google prices the Pro models higher for a request whose prompt is longer than this many tokens. */
const LONG_PROMPT_TOKENS = 200_000;

/**
 * Gemini API list prices (paid tier, USD per million tokens) for the models Gemini CLI uses: its
 * defaults (gemini-2.5-pro, -flash, -flash-lite; the gemini-3 previews its "auto" routing picks) and
 * what its subagents run on. Cached input is priced per model; implicit caching has no write price, so
 * the cache-write columns repeat the input price and are never used. Thoughts are billed as output.
 * The Pro models have a second tier for prompts above 200k tokens (every token of such a request at the
 * higher price, output included); Google counts the prompt as promptTokenCount, cached tokens
 * included: the neutral usage's input + cache reads (usage.ts; its input also holds the tool-use
 * prompt tokens, which Gemini CLI's requests do not have).
 */
export const GEMINI_PRICES: PriceTable = {
  asOf: '2026-12-02',
  source: 'Gemini API paid-tier list prices per MTok (the Pro models dearer above 200k-token prompts), ai.google.dev/gemini-api/docs/pricing as published in 2026; override with --prices FILE',
  models: [
    price('^gemini-3(?:\\.\\d+)?-pro', 'Gemini 3 Pro (preview)', 2, 12, 0.2, { input: 4, output: 18, cacheRead: 0.4 }),
    price('^gemini-3(?:\\.\\d+)?-flash', 'Gemini 3 Flash (preview)', 0.5, 3, 0.05),
    price('^gemini-2\\.5-pro', 'Gemini 2.5 Pro', 1.25, 10, 0.125, { input: 2.5, output: 15, cacheRead: 0.25 }),
    price('^gemini-2\\.5-flash-lite', 'Gemini 2.5 Flash-Lite', 0.1, 0.4, 0.01),
    price('^gemini-2\\.5-flash', 'Gemini 2.5 Flash', 0.3, 2.5, 0.03),
    price('^gemini-2\\.0-flash-lite', 'Gemini 2.0 Flash-Lite', 0.075, 0.3, 0.075),
    price('^gemini-2\\.0-flash', 'Gemini 2.0 Flash', 0.1, 0.4, 0.025),
  ],
};

function price(match: string, label: string, input: number, output: number, cacheRead: number, long?: { input: number; output: number; cacheRead: number }): ModelPrice {
  const p: ModelPrice = { match, label, input, output, cacheWrite5m: input, cacheWrite1h: input, cacheRead };
  if (long) p.longPrompt = { aboveTokens: LONG_PROMPT_TOKENS, input: long.input, output: long.output, cacheWrite5m: long.input, cacheWrite1h: long.input, cacheRead: long.cacheRead };
  return p;
}
