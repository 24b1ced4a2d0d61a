import type { MessageUsage, RecentMessage, ReplyTotals } from '@glassbox/core';

/** One file's usage in one UTC hour on one model: what the `usage_hours` table holds per row. */
export interface UsageHourDelta extends ReplyTotals {
  hour: string;
  model: string;
}

/** Timestamps without one (a record the client wrote no time on) are kept apart, never dropped. */
const UNKNOWN_HOUR = 'unknown';

/**
 * What one pass's messages add to a file's hourly buckets. A message already counted (its records
 * straddle the pass boundary, or repeat within the pass as a reply streams) replaces its old figures,
 * exactly as foldMessages does for the totals: so the buckets always add up to the row's totals.
 * The old figures are taken off the bucket of the message's final hour and model (the records of one
 * reply carry one model and are written within moments). Call before foldMessages changes `recent`.
 * Placeholders the client wrote itself (no model ran, `<synthetic>`) cost nothing and are left out.
 */
export function usageHourDeltas(recentBefore: readonly RecentMessage[], messages: readonly MessageUsage[], price: (m: MessageUsage) => number | null): UsageHourDelta[] {
  const recent = new Map<string, RecentMessage>(recentBefore.map((r) => [r[0], r]));
  const buckets = new Map<string, UsageHourDelta>();
  for (const m of messages) {
    const cost = price(m);
    const prev = recent.get(m.key);
    recent.set(m.key, [m.key, m.input, m.output, m.cacheCreation, m.cacheRead, cost]);
    if (m.synthetic) continue;
    const at = m.ts ? Date.parse(m.ts) : NaN;
    const hour = Number.isFinite(at) ? new Date(at).toISOString().slice(0, 13) : UNKNOWN_HOUR;
    const model = m.model ?? '';
    const k = `${hour}\u0000${model}`;
    let b = buckets.get(k);
    if (!b) buckets.set(k, (b = { hour, model, messages: 0, input: 0, output: 0, cacheCreation: 0, cacheRead: 0, cost: 0, unpriced: 0 }));
    if (prev) {
      b.input -= prev[1];
      b.output -= prev[2];
      b.cacheCreation -= prev[3];
      b.cacheRead -= prev[4];
      if (prev[5] === null) b.unpriced--;
      else b.cost -= prev[5];
    } else {
      b.messages++;
    }
    b.input += m.input;
    b.output += m.output;
    b.cacheCreation += m.cacheCreation;
    b.cacheRead += m.cacheRead;
    if (cost === null) b.unpriced++;
    else b.cost += cost;
  }
  return [...buckets.values()];
}
