// The fork's data types are agent-neutral and live in core; the refusal codes are Claude Code's own.
import type { AppliedAction, ForkAction, ForkResult as CoreForkResult, RefusedAction as CoreRefusedAction, RemovedPayload } from '@glassbox/core';

export type { AppliedAction, ForkAction, RemovedPayload };

export type RefusalCode =
  | 'record_not_found'
  | 'line_mismatch'
  | 'not_compact_json'
  | 'block_not_found'
  | 'wrong_block'
  | 'tool_use_mismatch'
  | 'error_result'
  | 'not_a_write_tool'
  | 'not_smaller'
  | 'loads_tools'
  | 'empty_tombstone'
  | 'duplicate_action';

export interface RefusedAction extends CoreRefusedAction {
  code: RefusalCode;
}

export interface ForkResult extends CoreForkResult {
  refused: RefusedAction[];
}
