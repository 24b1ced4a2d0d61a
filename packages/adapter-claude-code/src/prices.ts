import { catalogPriceTable, type PriceTable } from '@glassbox/core';
import { CLAUDE_MODELS } from './models/catalogue';

/**
 * Claude Code's models priced as its own catalogue prices them (models/catalogue.ts): one entry per
 * model, matching only that model's ids, so an unknown model has no price rather than another
 * model's. Users override them with `--prices FILE` (or GLASSBOX_PRICES), in the same format.
 */
export const CLAUDE_PRICES: PriceTable = {
  ...catalogPriceTable(CLAUDE_MODELS),
  models: [
    ...catalogPriceTable(CLAUDE_MODELS).models,
    // Replies the client writes itself are not billed.
    { match: '^<synthetic>$', label: 'synthetic (free)', input: 0, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0 },
  ],
};
