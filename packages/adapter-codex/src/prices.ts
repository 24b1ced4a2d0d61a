import type { ModelPrice, PriceTable } from '@glassbox/core';

export type { ModelPrice, PriceTable };

/**
 * OpenAI list prices for the models Codex uses, in the overridable format of the Claude Code table
 * (USD per million tokens; `match` is a regular expression on the model name, first match wins).
 * OpenAI bills cached input at a tenth of input on the GPT-5 family and has no cache-write price:
 * a prompt's uncached tokens are billed as input, so the cache-write columns repeat the input price
 * and are never used (Codex usage has no cache writes). Reasoning tokens are billed as output and are
 * already counted in `output_tokens`.
 */
export const CODEX_PRICES: PriceTable = {
  asOf: '2026-12-01',
  source:
    'OpenAI API list prices per MTok (standard tier, ≤272k input) as published in 2026; checked against ccusage 20.0.24 on the corpus; override with --prices FILE',
  models: [
    price('^gpt-5\\.5-pro', 'GPT-5.5 pro', 30, 180, 30),
    price('^gpt-5\\.5', 'GPT-5.5', 5, 30),
    price('^gpt-5\\.4-pro', 'GPT-5.4 pro', 30, 180, 30),
    price('^gpt-5\\.4-mini', 'GPT-5.4 mini', 0.75, 4.5),
    price('^gpt-5\\.4-nano', 'GPT-5.4 nano', 0.2, 1.25),
    price('^gpt-5\\.4', 'GPT-5.4', 2.5, 15),
    price('^gpt-5\\.[23](?:-codex)?(?!-)', 'GPT-5.2 / 5.3-Codex', 1.75, 14),
    price('^gpt-5\\.1-codex-mini', 'GPT-5.1-Codex mini', 0.25, 2),
    price('^gpt-5-codex-mini', 'GPT-5-Codex mini', 0.25, 2),
    price('^gpt-5-mini', 'GPT-5 mini', 0.25, 2),
    price('^gpt-5-nano', 'GPT-5 nano', 0.05, 0.4),
    price('^gpt-5(?:\\.1)?(?:-codex(?:-max)?)?$', 'GPT-5 / 5.1 / Codex', 1.25, 10),
  ],
};

/** Cached input at a tenth of input unless stated. */
function price(match: string, label: string, input: number, output: number, cacheRead = input / 10): ModelPrice {
  return { match, label, input, output, cacheWrite5m: input, cacheWrite1h: input, cacheRead };
}
