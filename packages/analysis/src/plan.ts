import {
  CLASS_REGISTRY,
  DEFAULT_FORK_CLASSES,
  isDeadClass,
  type ClassifiedSnapshot,
  type DeadClass,
  type DeadProof,
  type EvictionPlan,
  type ExcludedSegment,
  type ExclusionReason,
  type PlannedAction,
  type Segment,
} from '@glassbox/core';
import { deathReason, tombstoneText, tombstoneTokens, tombstoneTokensFor, TOMBSTONE_TOKENS_ESTIMATE } from './tombstone';
import { chooseForHorizon, economicsOf, type CacheModel } from './economics';

export interface PlanOptions {
  /** Classes to evict; default: the registry's default classes (the proven ones). */
  classes?: readonly DeadClass[];
  /** A plan that saves fewer net tokens than this is not worth a fork. */
  minimumSavings?: number;
  /** Choose, among the evictions, the subset with the lowest cost over the next `requests` requests. */
  horizon?: { requests: number; cache: CacheModel };
}

export const DEFAULT_MINIMUM_SAVINGS = 200;

/**
 * The eviction plan: one action per dead, unprotected payload of an enabled class, largest first.
 * Every other dead segment is listed in `excluded` with the reason it is kept, so that actions and
 * exclusions together are exactly the dead set. Tombstones name the payload's sha-256 as the
 * analysis knows it; the fork re-derives it from the bytes it actually removes.
 */
export function planEviction(snapshot: ClassifiedSnapshot, options: PlanOptions = {}): EvictionPlan {
  const classes = [...(options.classes ?? DEFAULT_FORK_CLASSES)];
  const minimum = options.minimumSavings ?? DEFAULT_MINIMUM_SAVINGS;
  const reasons: EvictionPlan['reasons'] = [];
  const excluded: ExcludedSegment[] = [];
  const exclude = (seg: Segment & { class: DeadClass }, reason: ExclusionReason, message: string, tokens = seg.evictableTokens): void => {
    excluded.push({ segmentId: seg.id, class: seg.class, tokens, reason, message, line: seg.line, source: seg.source.label });
  };
  const dead = snapshot.segments.filter((s): s is Segment & { class: DeadClass } => isDeadClass(s.class));
  const protectedTail = dead.filter((s) => s.protected).length;
  if (classes.length === 0) reasons.push({ code: 'no_classes_enabled', message: 'no class is enabled, so nothing is evicted' });

  let actions: PlannedAction[] = [];
  for (const seg of dead) {
    if (!classes.includes(seg.class)) {
      exclude(seg, 'class-not-chosen', `${CLASS_REGISTRY[seg.class].label} was not chosen for this fork`);
      continue;
    }
    if (seg.protected) {
      exclude(seg, 'protected-tail', 'in the last exchanges, which are never touched (--protect)');
      continue;
    }
    if (!seg.proof || seg.proof.class !== seg.class) {
      exclude(seg, 'not-worth-a-tombstone', 'no proof to write into a tombstone');
      continue;
    }
    if (seg.evictableTokens <= TOMBSTONE_TOKENS_ESTIMATE) {
      exclude(seg, 'not-worth-a-tombstone', `${seg.evictableTokens} tokens: no bigger than a tombstone (~${TOMBSTONE_TOKENS_ESTIMATE})`);
      continue;
    }
    const action = actionFor(seg, seg.proof as DeadProof, snapshot.context.bytesPerToken);
    // A tombstone as large as what it replaces saves nothing.
    if (action.tombstoneTokens >= action.tokensFreed) {
      exclude(seg, 'not-worth-a-tombstone', `its tombstone (${action.tombstoneTokens} tokens) is as large as what it frees (${action.tokensFreed})`);
      continue;
    }
    actions.push(action);
  }

  let horizon: EvictionPlan['horizon'];
  if (options.horizon && actions.length > 0) {
    const { requests, cache } = options.horizon;
    const chosen = new Set(chooseForHorizon(cache, actions.map((a) => ({ segmentId: a.segmentId, net: a.tokensFreed - a.tombstoneTokens })), requests).map((e) => e.segmentId));
    const bySegment = new Map(dead.map((s) => [s.id, s]));
    for (const a of actions) {
      if (chosen.has(a.segmentId)) continue;
      const seg = bySegment.get(a.segmentId);
      if (seg) exclude(seg, 'horizon-cost', `over the next ${requests} request(s) it is cheaper to keep: evicting it breaks the prompt cache earlier than it saves`, a.tokensFreed);
    }
    actions = actions.filter((a) => chosen.has(a.segmentId));
    if (actions.length === 0) {
      reasons.push({ code: 'horizon_cheaper_to_wait', message: `over the next ${requests} request(s), continuing the original costs less than any fork` });
    }
  }
  actions.sort((a, b) => b.tokensFreed - a.tokensFreed || a.line - b.line);

  const chosenDead = dead.filter((s) => classes.includes(s.class));
  if (classes.length > 0 && chosenDead.length === 0) {
    reasons.push({ code: 'nothing_provable', message: 'nothing in this window is provably dead — that is a normal result' });
  } else if (actions.length === 0 && chosenDead.length > 0 && !reasons.some((r) => r.code === 'horizon_cheaper_to_wait')) {
    reasons.push({
      code: 'all_protected',
      message: `${chosenDead.length} dead segment(s) are protected (recent exchanges) or smaller than their tombstone`,
    });
  }
  let reclaimable = 0;
  let tomb = 0;
  for (const a of actions) {
    reclaimable += a.tokensFreed;
    tomb += a.tombstoneTokens;
  }
  let net = reclaimable - tomb;
  if (actions.length > 0 && net < minimum) {
    reasons.push({ code: 'below_minimum_savings', message: `the plan would save ${net} tokens net, below the minimum of ${minimum}` });
    const bySegment = new Map(dead.map((s) => [s.id, s]));
    for (const a of actions) {
      const seg = bySegment.get(a.segmentId);
      if (seg) exclude(seg, 'below-minimum-savings', `the whole plan saves ${net} tokens net, below the minimum of ${minimum} (--min-savings)`, a.tokensFreed);
    }
    actions = [];
    reclaimable = 0;
    tomb = 0;
    net = 0;
  }
  const plan: EvictionPlan = {
    sessionId: snapshot.session.id,
    classes,
    actions,
    totals: { reclaimable, tombstoneTokens: tomb, netReclaimed: net, actions: actions.length },
    reasons,
    excluded,
    protectedTail,
  };
  if (options.horizon) {
    horizon = { requests: options.horizon.requests, economics: economicsOf(options.horizon.cache, plan) };
    plan.horizon = horizon;
  }
  return plan;
}

/**
 * Moves actions the fork layer could not apply exactly into `excluded` (reason `refused-by-fork`,
 * with the fork's own code) and recomputes the totals: what the plan says is what the fork does.
 */
export function withRefusals(plan: EvictionPlan, refused: readonly { segmentId: string; code: string; message: string }[]): EvictionPlan {
  if (refused.length === 0) return plan;
  const bySegment = new Map(refused.map((r) => [r.segmentId, r]));
  const kept: PlannedAction[] = [];
  const excluded = [...plan.excluded];
  for (const a of plan.actions) {
    const r = bySegment.get(a.segmentId);
    if (!r) {
      kept.push(a);
      continue;
    }
    excluded.push({ segmentId: a.segmentId, class: a.class, tokens: a.tokensFreed, reason: 'refused-by-fork', message: r.message, line: a.line, source: a.sourceLabel, forkCode: r.code });
  }
  const reclaimable = kept.reduce((n, a) => n + a.tokensFreed, 0);
  const tomb = kept.reduce((n, a) => n + a.tombstoneTokens, 0);
  return { ...plan, actions: kept, excluded, totals: { reclaimable, tombstoneTokens: tomb, netReclaimed: reclaimable - tomb, actions: kept.length } };
}

/** Exclusions grouped by reason, in a stable order, with their totals: for `clean` and the wizard. */
export function exclusionsByReason(plan: EvictionPlan): { reason: ExclusionReason; segments: number; tokens: number; items: ExcludedSegment[] }[] {
  const order: ExclusionReason[] = ['class-not-chosen', 'protected-tail', 'not-worth-a-tombstone', 'horizon-cost', 'below-minimum-savings', 'refused-by-fork'];
  return order
    .map((reason) => {
      const items = plan.excluded.filter((e) => e.reason === reason);
      return { reason, segments: items.length, tokens: items.reduce((n, e) => n + e.tokens, 0), items };
    })
    .filter((g) => g.segments > 0);
}

function actionFor(seg: Segment & { class: DeadClass }, proof: DeadProof, bytesPerToken: number): PlannedAction {
  const tombstone = tombstoneText(seg, proof, seg.hash ?? '');
  const action: PlannedAction = {
    segmentId: seg.id,
    uuid: seg.uuid,
    line: seg.line,
    blockIndex: seg.blockIndex,
    class: seg.class,
    proof,
    tombstone,
    tokensFreed: seg.evictableTokens,
    tombstoneTokens: proof.class === 'elided' ? tombstoneTokensFor(seg, proof, bytesPerToken) : tombstoneTokens(tombstone, bytesPerToken),
    target: seg.kind === 'tool-input' ? 'tool-input' : 'tool-result',
    sourceLabel: seg.source.label,
    reason: deathReason(proof),
  };
  if (seg.toolUseId) action.toolUseId = seg.toolUseId;
  if (proof.class === 'duplicate') action.ref = proof.kept;
  if (proof.class === 'stale-superseded') action.ref = proof.by;
  return action;
}
