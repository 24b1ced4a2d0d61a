import type { DeadClass, Proof, SegmentRef } from './snapshot';

export type PlanReasonCode = 'nothing_provable' | 'below_minimum_savings' | 'all_protected' | 'no_classes_enabled';

export interface PlannedAction {
  segmentId: string;
  uuid: string;
  line: number;
  blockIndex: number;
  toolUseId?: string;
  class: DeadClass;
  proof: Proof;
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
  protectedTail: number;
}
