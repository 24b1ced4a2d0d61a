/**
 * What a fork is made of, in agent-neutral terms: the payloads a plan replaces, what each adapter's fork
 * builder did with them, and the report of its differential validator. Each agent's adapter builds and
 * validates forks of its own format; the store writes them and the apps show these reports.
 */

/** One payload to replace in a fork. A plan's actions (`PlannedAction`) are structurally one of these. */
export interface ForkAction {
  /** The record holding the payload (its uuid, or the adapter's stable record id). */
  uuid: string;
  /** Index of the block in the record's content. */
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
  /** JSON path inside the record, e.g. `message.content[2].content`. */
  path: string;
  /** The removed value as text: the string itself, or the JSON of a non-string value. */
  text: string;
  /** True for what the model saw; false for a client-side copy the model never sees. */
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

export interface RefusedAction {
  action: ForkAction;
  /** Why the adapter would not apply it, as a stable code (e.g. `not_smaller`, `error_result`). */
  code: string;
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

export interface CheckFailure {
  /** 1-based line in the fork. */
  line?: number | undefined;
  uuid?: string | undefined;
  detail: string;
}

export interface CheckResult {
  /** A stable id of the check (e.g. `orphans`, `parents`); each adapter names its own. */
  id: string;
  title: string;
  ok: boolean;
  failures: CheckFailure[];
  /** Failures beyond the ones listed. */
  more: number;
}

export interface ValidationSide {
  sessionId: string | null;
  lines: number;
  /** Records the client would load on resume. */
  live: number;
  estimatedTokens: number;
  leafUuid: string | null;
}

export interface ValidationReport {
  ok: boolean;
  checks: CheckResult[];
  original: ValidationSide;
  fork: ValidationSide;
  /** Lines whose payloads differ from the original's. */
  touchedLines: number[];
}

export interface ValidateOptions {
  /** When given, the lines that changed must be exactly the lines of these actions. */
  actions?: readonly (ForkAction & { line?: number })[];
  /** Lines the fork writer reports as touched (with `actions`, the check compares them). */
  touchedLines?: readonly number[];
}
