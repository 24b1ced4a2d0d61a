import { DEFAULT_PRICES, SYNTHETIC_MODEL, findPrice, type ModelPrice, type PriceTable } from '@glassbox/analysis';
import type { MessageUsage } from './summary';

/**
 * Prices one API message with the analysis package's table, the same rule as its computeCost
 * (cache writes without a 5m/1h split are billed as 5-minute writes), so that a session's cost is a
 * plain sum over its stored messages and stays additive as the file grows. null: no price known.
 */
export function messagePricer(table: PriceTable = DEFAULT_PRICES): (m: MessageUsage) => number | null {
  const byModel = new Map<string, ModelPrice | null>();
  return (m) => {
    const model = m.model ?? '';
    if (model === SYNTHETIC_MODEL) return 0;
    let p = byModel.get(model);
    if (p === undefined) {
      p = model ? findPrice(model, table) : null;
      byModel.set(model, p);
    }
    if (!p) return null;
    const w1 = m.cacheCreation1h;
    const w5 = m.cacheCreation - w1;
    return (m.input * p.input + m.output * p.output + w5 * p.cacheWrite5m + w1 * p.cacheWrite1h + m.cacheRead * p.cacheRead) / 1_000_000;
  };
}
