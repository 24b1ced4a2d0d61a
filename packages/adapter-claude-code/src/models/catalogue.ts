import type { ModelCatalogue, ModelInfo, TokenPrices } from '@glassbox/core';

/**
 * The models Claude Code knows, as its own built-in catalogue states them (the `models` and
 * `pricing_tiers` tables embedded in the 2.1.332 binary, first-party API; docs/claude-code/models.md):
 * window, the 1M-context variant where there is one, list prices per million tokens by token class,
 * and whether the client asks the API to keep the model's reasoning (its `context_management`
 * capability). A model not listed here is unknown: no window, no price, no guess.
 */
const TIERS = {
  tier_2_10: prices(2, 10, 2.5, 4, 0.2),
  tier_2_10_cache_read_0_10: prices(2, 10, 2.5, 4, 0.1),
  tier_3_15: prices(3, 15, 3.75, 6, 0.3),
  tier_5_25: prices(5, 25, 6.25, 10, 0.5),
  tier_15_75: prices(15, 75, 18.75, 30, 1.5),
  tier_10_50: prices(10, 50, 12.5, 20, 1),
  tier_10_50_cache_read_0_25: prices(10, 50, 12.5, 20, 0.25),
  tier_4_20_cache_read_0_20: prices(4, 20, 5, 8, 0.2),
  tier_8_40_cache_read_0_20: prices(8, 40, 10, 16, 0.2),
  haiku_35: prices(0.8, 4, 1, 1.6, 0.08),
  haiku_45: prices(1, 5, 1.25, 2, 0.1),
  haiku_55: prices(0.1, 0.5, 0.125, 0.2, 0.01),
  // Anthropic's list prices for Claude 3 models the 2.1.332 catalogue no longer lists.
  claude_3_opus: prices(15, 75, 18.75, 30, 1.5),
  claude_3_haiku: prices(0.25, 1.25, 0.3, 0.5, 0.03),
} satisfies Record<string, TokenPrices>;

type Tier = keyof typeof TIERS;

const M1 = 1_000_000;
const K200 = 200_000;

export const CLAUDE_MODELS: ModelCatalogue = {
  asOf: '2026-12-02',
  source: "Claude Code 2.1.332's built-in model catalogue (first-party API list prices per MTok); override prices with --prices FILE",
  models: [
    model('claude-3-5-haiku', 'Claude Haiku 3.5', ['claude-3-5-haiku-20241022'], K200, null, 'haiku_35', false),
    model('claude-haiku-4-5', 'Claude Haiku 4.5', ['claude-haiku-4-5-20251001'], K200, M1, 'haiku_45', true),
    {
      ...model('claude-haiku-5-5', 'Claude Haiku 5.5', [], M1, null, 'haiku_55', true),
      longPromptPrices: { ...prices(0.5, 2.5, 0.625, 1, 0.05), aboveTokens: 100_000 },
    },
    model('claude-3-5-sonnet', 'Claude Sonnet 3.5', ['claude-3-5-sonnet-20241022'], K200, null, 'tier_3_15', false),
    model('claude-3-7-sonnet', 'Claude Sonnet 3.7', ['claude-3-7-sonnet-20250219'], K200, null, 'tier_3_15', false),
    model('claude-sonnet-4-0', 'Claude Sonnet 4', ['claude-sonnet-4-20250514', 'claude-sonnet-4'], K200, M1, 'tier_3_15', true),
    model('claude-sonnet-4-5', 'Claude Sonnet 4.5', ['claude-sonnet-4-5-20250929'], K200, M1, 'tier_3_15', true),
    model('claude-sonnet-4-6', 'Claude Sonnet 4.6', [], K200, M1, 'tier_3_15', true),
    model('claude-sonnet-5', 'Claude Sonnet 5', [], M1, null, 'tier_2_10', true),
    model('claude-sonnet-5-5', 'Claude Sonnet 5.5', [], M1, null, 'tier_2_10_cache_read_0_10', true),
    model('claude-opus-4-0', 'Claude Opus 4', ['claude-opus-4-20250514', 'claude-opus-4'], K200, M1, 'tier_15_75', true),
    model('claude-opus-4-1', 'Claude Opus 4.1', ['claude-opus-4-1-20250805'], K200, M1, 'tier_15_75', true),
    model('claude-opus-4-5', 'Claude Opus 4.5', ['claude-opus-4-5-20251101'], K200, M1, 'tier_5_25', true),
    model('claude-opus-4-6', 'Claude Opus 4.6', [], K200, M1, 'tier_5_25', true),
    model('claude-opus-4-7', 'Claude Opus 4.7', [], M1, null, 'tier_5_25', true),
    model('claude-opus-4-8', 'Claude Opus 4.8', [], M1, null, 'tier_5_25', true),
    model('claude-opus-5', 'Claude Opus 5', [], M1, null, 'tier_5_25', true),
    model('claude-opus-5-5', 'Claude Opus 5.5', [], M1, null, 'tier_4_20_cache_read_0_20', true),
    model('claude-fable-5', 'Claude Fable 5', [], M1, null, 'tier_10_50', true),
    model('claude-fable-5-1', 'Claude Fable 5.1', [], M1, null, 'tier_10_50_cache_read_0_25', true),
    model('claude-fable-5-2', 'Claude Fable 5.2', [], M1, null, 'tier_8_40_cache_read_0_20', true),
    model('claude-mythos-5', 'Claude Mythos 5', [], M1, null, 'tier_10_50', false),
    model('claude-mythos-5-1', 'Claude Mythos 5.1', [], M1, null, 'tier_10_50_cache_read_0_25', true),
    model('claude-mythos-5-2', 'Claude Mythos 5.2', [], M1, null, 'tier_8_40_cache_read_0_20', true),
    model('claude-3-opus', 'Claude Opus 3', ['claude-3-opus-20240229'], K200, null, 'claude_3_opus', false),
    model('claude-3-haiku', 'Claude Haiku 3', ['claude-3-haiku-20240307'], K200, null, 'claude_3_haiku', false),
  ],
};

function prices(input: number, output: number, cacheWrite5m: number, cacheWrite1h: number, cacheRead: number): TokenPrices {
  return { input, output, cacheWrite5m, cacheWrite1h, cacheRead };
}

function model(id: string, label: string, aliases: string[], contextWindow: number, longContextWindow: number | null, tier: Tier, keepsReasoning: boolean): ModelInfo {
  return { id, label, aliases, contextWindow, longContextWindow, prices: TIERS[tier], keepsReasoning };
}
