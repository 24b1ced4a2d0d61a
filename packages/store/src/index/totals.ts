import type { MessageUsage, RecentMessage, SummaryState } from '@glassbox/core';

/**
 * How many of the last messages the checkpoint remembers. The records of one API reply are written
 * together (one per content block, tool results of parallel calls between them), so a reply can be
 * split by the end of a pass but never reappears after dozens of other replies.
 */
const RECENT_MESSAGES = 32;

/**
 * Folds one pass's messages into the checkpoint's totals: a message already counted (its records
 * straddle the pass boundary) has its old figures replaced by the final ones, so totals stay exact
 * and additive without storing every message.
 */
export function foldMessages(state: SummaryState, messages: readonly MessageUsage[], price: (m: MessageUsage) => number | null): void {
  const t = state.totals;
  const recent = new Map<string, RecentMessage>(state.recent.map((r) => [r[0], r]));
  for (const m of messages) {
    const prev = recent.get(m.key);
    if (prev) {
      t.input -= prev[1];
      t.output -= prev[2];
      t.cacheCreation -= prev[3];
      t.cacheRead -= prev[4];
      if (prev[5] === null) t.unpriced--;
      else t.cost -= prev[5];
      recent.delete(m.key);
    } else {
      t.apiMessages++;
    }
    const cost = price(m);
    t.input += m.input;
    t.output += m.output;
    t.cacheCreation += m.cacheCreation;
    t.cacheRead += m.cacheRead;
    if (cost === null) t.unpriced++;
    else t.cost += cost;
    recent.set(m.key, [m.key, m.input, m.output, m.cacheCreation, m.cacheRead, cost]);
  }
  state.recent = [...recent.values()].slice(-RECENT_MESSAGES);
}
