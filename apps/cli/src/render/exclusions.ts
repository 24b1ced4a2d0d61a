import { humanTokens, type EvictionPlan } from '@glassbox/core';
import { exclusionsByReason } from '@glassbox/analysis';
import type { Paint } from './palette';
import { WIDTH, padLeft, padRight, truncate } from './layout';

/** Dead segments the plan keeps, grouped by reason: together with the actions, the whole dead set. */
export function renderExclusions(plan: EvictionPlan, p: Paint): string[] {
  const groups = exclusionsByReason(plan);
  if (groups.length === 0) return [];
  const n = plan.excluded.length;
  const out = [p.bold(`Kept although dead (${n} segment${n === 1 ? '' : 's'}), by reason`)];
  for (const g of groups) {
    const first = g.items[0];
    const detail = g.reason === 'refused-by-fork' && first ? `${first.forkCode ?? ''}: ${first.message}` : g.reason === 'class-not-chosen' ? [...new Set(g.items.map((i) => i.class))].join(', ') : (first?.message ?? '');
    out.push(`  ${padRight(g.reason, 22)} ${padLeft(String(g.segments), 4)} seg ${padLeft(humanTokens(g.tokens), 7)} tokens  ${p.dim(truncate(detail, WIDTH - 50))}`);
  }
  return out;
}

export function exclusionsJson(plan: EvictionPlan): object[] {
  return exclusionsByReason(plan).map((g) => ({ reason: g.reason, segments: g.segments, tokens: g.tokens }));
}
