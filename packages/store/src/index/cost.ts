import { findPrice, usageCost, type MessageUsage, type ModelPrice, type PriceTable } from '@glassbox/core';

/**
 * Prices one API message with an agent's table and the one cost formula (core's usageCost, as the
 * analysis's computeCost uses), so that a session's cost is a plain sum over its stored messages and
 * stays additive as the file grows. null: no price known for the model.
 */
export function messagePricer(table: PriceTable): (m: MessageUsage) => number | null {
  const byModel = new Map<string, ModelPrice | null>();
  return (m) => {
    if (m.synthetic) return 0;
    const model = m.model ?? '';
    let p = byModel.get(model);
    if (p === undefined) {
      p = model ? findPrice(model, table) : null;
      byModel.set(model, p);
    }
    if (!p) return null;
    return usageCost(
      {
        inputTokens: m.input,
        outputTokens: m.output,
        cacheCreationTokens: m.cacheCreation,
        cacheReadTokens: m.cacheRead,
        cacheCreation5mTokens: m.cacheCreation - m.cacheCreation1h,
        cacheCreation1hTokens: m.cacheCreation1h,
      },
      p,
    );
  };
}
