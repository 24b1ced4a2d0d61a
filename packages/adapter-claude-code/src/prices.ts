import type { ModelPrice, PriceTable } from '@glassbox/core';

/**
 * Anthropic's list prices (standard tier, up to 200k context), USD per million tokens. Cache writes
 * cost 1.25× input for the 5-minute cache and 2× for the 1-hour cache; cache reads 0.1×. Users override
 * them with `--prices FILE` (or GLASSBOX_PRICES), in the same format.
 */
export const CLAUDE_PRICES: PriceTable = {
  asOf: '2026-11-30',
  source: 'Anthropic list prices per MTok (standard tier, ≤200k context); override with --prices FILE',
  models: [
    price('claude-opus-4-(?:[5-9]|[1-9]\\d)(?!\\d)', 'Claude Opus 4.5+', 5, 25),
    price('opus-4|claude-3-opus|opus', 'Claude Opus 4/4.1, 3', 15, 75),
    price('sonnet', 'Claude Sonnet', 3, 15),
    price('haiku-4', 'Claude Haiku 4.5', 1, 5),
    price('3-5-haiku|haiku-3-5', 'Claude Haiku 3.5', 0.8, 4),
    price('haiku', 'Claude Haiku 3', 0.25, 1.25),
    // Replies the client writes itself are not billed.
    { match: '^<synthetic>$', label: 'synthetic (free)', input: 0, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0 },
  ],
};

function price(match: string, label: string, input: number, output: number): ModelPrice {
  return { match, label, input, output, cacheWrite5m: input * 1.25, cacheWrite1h: input * 2, cacheRead: input * 0.1 };
}
