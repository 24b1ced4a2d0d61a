import type { ModelPrice, PriceTable } from '@glassbox/core';

/**
 * Gemini API list prices (paid tier, USD per million tokens, prompts up to 200k tokens) for the models
 * Gemini CLI uses: its defaults (gemini-2.5-pro, -flash, -flash-lite; the gemini-3 previews its "auto"
 * routing picks) and what its subagents run on. Cached input is priced per model; implicit caching has
 * no write price, so the cache-write columns repeat the input price and are never used. Thoughts are
 * billed as output. Prompts above 200k tokens cost more on the Pro models (2.5 Pro: 2.50 / 15 / 0.25;
 * 3 Pro: 4 / 18 / 0.40): the table has one tier, so those requests are under-priced (see SEAM.md).
 */
export const GEMINI_PRICES: PriceTable = {
  asOf: '2026-12-02',
  source: 'Gemini API paid-tier list prices per MTok (≤200k-token prompts), ai.google.dev/gemini-api/docs/pricing as published in 2026; override with --prices FILE',
  models: [
    price('^gemini-3(?:\\.\\d+)?-pro', 'Gemini 3 Pro (preview)', 2, 12, 0.2),
    price('^gemini-3(?:\\.\\d+)?-flash', 'Gemini 3 Flash (preview)', 0.5, 3, 0.05),
    price('^gemini-2\\.5-pro', 'Gemini 2.5 Pro', 1.25, 10, 0.125),
    price('^gemini-2\\.5-flash-lite', 'Gemini 2.5 Flash-Lite', 0.1, 0.4, 0.01),
    price('^gemini-2\\.5-flash', 'Gemini 2.5 Flash', 0.3, 2.5, 0.03),
    price('^gemini-2\\.0-flash-lite', 'Gemini 2.0 Flash-Lite', 0.075, 0.3, 0.075),
    price('^gemini-2\\.0-flash', 'Gemini 2.0 Flash', 0.1, 0.4, 0.025),
  ],
};

function price(match: string, label: string, input: number, output: number, cacheRead: number): ModelPrice {
  return { match, label, input, output, cacheWrite5m: input, cacheWrite1h: input, cacheRead };
}
