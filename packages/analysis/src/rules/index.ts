import type { SegmentClass } from '@glassbox/core';
import type { ClassRule } from './rule';
import { tombstoneRule } from './tombstone';
import { goneRule } from './gone';
import { staleSupersededRule } from './stale-superseded';
import { staleDriftRule } from './stale-drift';
import { duplicateRule } from './duplicate';
import { spentRule } from './spent';
import { elidedRule } from './elided';

/** One rule per class of the registry (the compiler checks that none is missing), run by stage. */
const RULES: { readonly [K in Exclude<SegmentClass, 'live'>]: ClassRule<K> } = {
  tombstone: tombstoneRule,
  gone: goneRule,
  'stale-superseded': staleSupersededRule,
  'stale-drift': staleDriftRule,
  duplicate: duplicateRule,
  spent: spentRule,
  elided: elidedRule,
};

export const RULES_BY_STAGE: readonly ClassRule[] = (Object.values(RULES) as ClassRule[]).sort((a, b) => a.stage - b.stage);

export type { ClassRule } from './rule';
export { ruleContext } from './context';
export { comparableText, sliceRange } from './stale-drift';
