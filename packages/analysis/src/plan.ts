import {
  PROVABLE_CLASSES,
  type ClassifiedSnapshot,
  type DeadClass,
  type EvictionPlan,
  type PlannedAction,
  type Proof,
  type Segment,
} from '@glassbox/core';
import { isReclaimable } from './reclaim';
import { deathReason, tombstoneText, tombstoneTokens } from './tombstone';

export interface PlanOptions {
  /** Classes to evict; default: the four provable ones. */
  classes?: readonly DeadClass[];
  /** A plan that saves fewer net tokens than this is not worth a fork. */
  minimumSavings?: number;
}

export const DEFAULT_MINIMUM_SAVINGS = 200;

/**
 * The eviction plan: one action per dead, unprotected payload of an enabled class, largest first.
 * Tombstones name the payload's sha-256 as the analysis knows it; the fork re-derives it from the
 * bytes it actually removes.
 */
export function planEviction(snapshot: ClassifiedSnapshot, options: PlanOptions = {}): EvictionPlan {
  const classes = [...(options.classes ?? PROVABLE_CLASSES)];
  const minimum = options.minimumSavings ?? DEFAULT_MINIMUM_SAVINGS;
  const reasons: EvictionPlan['reasons'] = [];
  const protectedTail = snapshot.segments.filter((s) => s.protected && s.class !== 'live').length;
  if (classes.length === 0) reasons.push({ code: 'no_classes_enabled', message: 'no class is enabled, so nothing is evicted' });

  const actions: PlannedAction[] = [];
  for (const seg of snapshot.segments) {
    if (!isReclaimable(seg, classes) || !seg.proof || seg.class === 'live') continue;
    const action = actionFor(seg, seg.proof);
    // A tombstone as large as what it replaces saves nothing.
    if (action.tombstoneTokens >= action.tokensFreed) continue;
    actions.push(action);
  }
  actions.sort((a, b) => b.tokensFreed - a.tokensFreed || a.line - b.line);

  const dead = snapshot.segments.filter((s) => s.class !== 'live' && classes.includes(s.class));
  if (classes.length > 0 && dead.length === 0) {
    reasons.push({ code: 'nothing_provable', message: 'nothing in this window is provably dead — that is a normal result' });
  } else if (actions.length === 0 && dead.length > 0) {
    reasons.push({
      code: 'all_protected',
      message: `${dead.length} dead segment(s) are protected (recent exchanges) or smaller than their tombstone`,
    });
  }
  let reclaimable = 0;
  let tomb = 0;
  for (const a of actions) {
    reclaimable += a.tokensFreed;
    tomb += a.tombstoneTokens;
  }
  let net = reclaimable - tomb;
  let kept = actions;
  if (actions.length > 0 && net < minimum) {
    reasons.push({
      code: 'below_minimum_savings',
      message: `the plan would save ${net} tokens net, below the minimum of ${minimum}`,
    });
    kept = [];
    reclaimable = 0;
    tomb = 0;
    net = 0;
  }
  return {
    sessionId: snapshot.session.id,
    classes,
    actions: kept,
    totals: { reclaimable, tombstoneTokens: tomb, netReclaimed: net, actions: kept.length },
    reasons,
    protectedTail,
  };
}

function actionFor(seg: Segment, proof: Proof): PlannedAction {
  const tombstone = tombstoneText(seg, proof, seg.hash ?? '');
  const action: PlannedAction = {
    segmentId: seg.id,
    uuid: seg.uuid,
    line: seg.line,
    blockIndex: seg.blockIndex,
    class: seg.class as DeadClass,
    proof,
    tombstone,
    tokensFreed: seg.evictableTokens,
    tombstoneTokens: tombstoneTokens(tombstone),
    target: seg.kind === 'tool-input' ? 'tool-input' : 'tool-result',
    sourceLabel: seg.source.label,
    reason: deathReason(proof),
  };
  if (seg.toolUseId) action.toolUseId = seg.toolUseId;
  if (proof.class === 'duplicate') action.ref = proof.kept;
  if (proof.class === 'stale-superseded') action.ref = proof.by;
  return action;
}
