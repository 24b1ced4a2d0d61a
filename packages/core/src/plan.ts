import type { DeadClass, DeadProof, SegmentRef } from './classes';
import type { ForkEconomics } from './economics';

export type PlanReasonCode = 'nothing_provable' | 'below_minimum_savings' | 'all_protected' | 'no_classes_enabled' | 'horizon_cheaper_to_wait';

/** Why a dead segment is not an action of the plan. */
export type ExclusionReason =
  /** In the last exchanges the user protects. */
  | 'protected-tail'
  /** Its tombstone would cost as much as it frees. */
  | 'not-worth-a-tombstone'
  /** Its class was not chosen for this fork. */
  | 'class-not-chosen'
  /** The whole plan saves less than the minimum worth a fork. */
  | 'below-minimum-savings'
  /** Over the chosen horizon, evicting it costs more (it breaks the prompt cache earlier) than it saves. */
  | 'horizon-cost'
  /** The fork layer could not replace it exactly (see `forkCode`). */
  | 'refused-by-fork';

export const EXCLUSION_REASONS: readonly ExclusionReason[] = [
  'class-not-chosen',
  'protected-tail',
  'not-worth-a-tombstone',
  'horizon-cost',
  'below-minimum-savings',
  'refused-by-fork',
];

export interface ExcludedSegment {
  segmentId: string;
  class: DeadClass;
  /** The tokens a tombstone would have freed. */
  tokens: number;
  reason: ExclusionReason;
  message: string;
  line: number;
  source: string;
  /** For `refused-by-fork`: the fork layer's own reason code. */
  forkCode?: string;
}

export interface PlannedAction {
  segmentId: string;
  uuid: string;
  line: number;
  blockIndex: number;
  toolUseId?: string;
  class: DeadClass;
  proof: DeadProof;
  /** What the tombstone says, as it will be written. */
  tombstone: string;
  tokensFreed: number;
  tombstoneTokens: number;
  /** Where this payload lives in the record: the tool result or the tool input. */
  target: 'tool-result' | 'tool-input';
  sourceLabel: string;
  reason: string;
  ref?: SegmentRef;
}

export interface EvictionPlan {
  sessionId: string;
  classes: DeadClass[];
  actions: PlannedAction[];
  totals: { reclaimable: number; tombstoneTokens: number; netReclaimed: number; actions: number };
  /** Why the plan is empty or smaller than the classified total. */
  reasons: { code: PlanReasonCode; message: string }[];
  /** Every segment classified dead that is not an action, with the reason: actions ∪ excluded = the dead set. */
  excluded: ExcludedSegment[];
  protectedTail: number;
  /** When the plan was chosen for the lowest cost over the next N requests (`--horizon N`). */
  horizon?: { requests: number; economics: ForkEconomics };
}
