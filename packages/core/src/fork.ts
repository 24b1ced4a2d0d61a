import type { Session } from './session';
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

/**
 * How a caller derives an action's final tombstone from the payload it replaces: for each action,
 * null (keep the tombstone as planned) or a function of the first payload the model saw.
 */
export type TombstoneFill = (action: ForkAction) => ((removed: RemovedPayload) => string) | null;

/** What a fork builder will do, known after its index pass: what applies, what is refused, where. */
export interface ForkPrepared {
  applied: AppliedAction[];
  refused: RefusedAction[];
  /** 1-based numbers of the lines whose payloads change. */
  touchedLines: number[];
}

/** What a fork builder did, once every line went through it. */
export interface ForkOutcome extends ForkPrepared {
  newSessionId: string;
  /** The session id(s) the original's records carried (normally one). */
  originalSessionIds: string[];
}

/** A fork built in memory (small files and tests): the outcome and every line of the fork. */
export interface ForkResult extends ForkOutcome {
  lines: string[];
}

/** A line of a file: its number (from 1), the byte offset where it starts, and its length in bytes. */
export interface LineRef {
  line: number;
  offset: number;
  length: number;
}

/** A fork's line as its original's bytes with `[start, end)` replaced by `insert`. */
export interface LineSplice {
  start: number;
  end: number;
  insert: Uint8Array;
}

/**
 * Builds a fork in two passes over the original's lines, so that no side ever holds the file: the
 * index pass finds what the actions name (keeping only the lines they touch), `prepare` applies them,
 * and the transform pass gives the fork's line for each original line, in order. No I/O: the caller
 * reads the lines (a file, or an array) and writes what comes out.
 */
export interface ForkBuilder {
  /** Pass 1: every line of the original (without its newline), in order, numbered from 1. */
  index(text: string, line: number): void;
  /**
   * Pass 1 from a line's raw UTF-8 bytes (without its newline), instead of `index`, when the reader
   * has them: a builder then decodes only the lines it needs. The bytes are valid during the call only.
   */
  indexBytes?(bytes: Uint8Array, line: number): void;
  /**
   * Pass 1 without reading the file again, when the plan's parse of the same bytes is at hand: the
   * lines (with their places in the file, from the session's records) this builder's index needs, to
   * be fed to `index` in order — a builder fed them prepares what a full pass would. Null when it
   * needs every line (an action the session cannot place).
   */
  indexLines?(session: Session): readonly LineRef[] | null;
  /**
   * After pass 1, once: applies the actions to the lines they name. `fill` may rewrite an action's
   * tombstone from the payload it replaces (Glassbox names the removed bytes' hash in it); the action
   * in the outcome then carries the rewritten tombstone.
   */
  prepare(fill?: TombstoneFill): ForkPrepared;
  /** Pass 2: the fork's line for each line of the original, in the same order as pass 1. */
  transform(text: string, line: number): string;
  /**
   * Pass 2 with the line's raw UTF-8 bytes at hand as well (instead of `transform`, when the reader has
   * them): a line that only changes a range of ASCII bytes (a renamed session id) is given as that
   * splice of its original's bytes, so no text is built or encoded for it; any other line as text.
   * The bytes are valid during the call only.
   */
  transformBytes?(bytes: Uint8Array, text: string, line: number): string | LineSplice;
  /** After pass 2. */
  finish(): ForkOutcome;
}

/**
 * Differential validation fed line pairs: the original's and the fork's line at each position, in
 * order (`undefined` where one side has no such line). Memory follows the lines, not the files.
 */
export interface ForkValidator {
  pair(original: string | undefined, fork: string | undefined, line: number): void;
  /**
   * `pair` when the caller holds both lines as bytes (the fork's exactly as written): a validator can
   * compare them without decoding the fork's line, and decodes it only when they differ by more than
   * it can tell from the bytes. Both are valid during the call only.
   */
  pairBytes?(original: { text: string; bytes: Uint8Array }, fork: Uint8Array, line: number): void;
  finish(): ValidationReport;
}

/** Runs a builder over lines held in memory. */
export function buildForkFromLines(builder: ForkBuilder, lines: readonly string[]): ForkResult {
  lines.forEach((text, i) => builder.index(text, i + 1));
  builder.prepare();
  const out = lines.map((text, i) => builder.transform(text, i + 1));
  return { ...builder.finish(), lines: out };
}

/** Runs a validator over two sets of lines held in memory. */
export function validateFromLines(validator: ForkValidator, original: readonly string[], fork: readonly string[]): ValidationReport {
  const n = Math.max(original.length, fork.length);
  for (let i = 0; i < n; i++) validator.pair(original[i], fork[i], i + 1);
  return validator.finish();
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
  /**
   * The original as the plan parsed it, when the caller holds it and knows it parsed the same bytes
   * (the fork writer checks the file's stamp and a checksum between passes): a validator may take
   * what it needs of the original (its live chain) from it instead of parsing the original again.
   */
  original?: Session;
}
