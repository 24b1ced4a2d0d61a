/**
 * One payload to replace in a fork. `PlannedAction` (packages/core) is structurally one of these,
 * so a plan's actions can be passed as they are.
 */
export interface ForkAction {
  /** The record holding the payload: a tool-result user record, or the assistant record with the tool_use. */
  uuid: string;
  /** Index of the block in `message.content`. */
  blockIndex: number;
  target: 'tool-result' | 'tool-input';
  toolUseId?: string;
  /** What replaces the payload, as written. */
  tombstone: string;
  /** 1-based line of the record, when the caller knows it (checked against `uuid`). */
  line?: number;
  /** Passed through to the result, to name the action in reports (e.g. `<uuid>:<block>`). */
  segmentId?: string;
}

/** A payload the fork replaced: where it was and the exact text removed (for the archive). */
export interface RemovedPayload {
  /** JSON path inside the record, e.g. `message.content[2].content` or `toolUseResult.file.content`. */
  path: string;
  /** The removed value as text: the string itself, or the JSON of a non-string value. */
  text: string;
  /** True for what the model saw; false for the client-side mirror (`toolUseResult`). */
  sentToModel: boolean;
}

export interface AppliedAction {
  action: ForkAction;
  line: number;
  toolName: string;
  removed: RemovedPayload[];
  /** UTF-8 bytes of the model-visible payloads before and after. */
  bytesBefore: number;
  bytesAfter: number;
}

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
  | 'empty_tombstone'
  | 'duplicate_action';

export interface RefusedAction {
  action: ForkAction;
  code: RefusalCode;
  message: string;
  line?: number;
}

export interface ForkResult {
  lines: string[];
  newSessionId: string;
  /** The session id(s) the original's records carried (normally one). */
  originalSessionIds: string[];
  applied: AppliedAction[];
  refused: RefusedAction[];
  /** 1-based numbers of the lines whose payloads changed. */
  touchedLines: number[];
}
