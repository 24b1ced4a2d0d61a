import type { SegmentClass } from '@glassbox/core';
import type { RuleContext } from './context';

/** One classification rule: gives segments of its class a proof. Anything without a proof stays live. */
export interface ClassRule<K extends Exclude<SegmentClass, 'live'> = Exclude<SegmentClass, 'live'>> {
  class: K;
  /**
   * Rules run in ascending stage; a segment keeps the first class it is given. (A tombstone is
   * recognised before anything else; a file that is gone is not also stale; a superseded read is not
   * also drifted; duplicates are found among what is still live.)
   */
  stage: number;
  apply(ctx: RuleContext): void;
}
