import { utf8Bytes } from '../hash';
import { isObject, parseObject, str, type JsonObject } from '../json';
import { renameIdValues } from './ids';
import { valueSpan } from './json-span';

/**
 * One tool output to replace by a tombstone. A plan's `PlannedAction` fits: Codex nodes are named
 * `L<line>`, the output is the record's only block, `toolUseId` is the call id.
 */
export interface CodexForkAction {
  uuid?: string;
  line: number;
  blockIndex?: number;
  target?: 'tool-result' | 'tool-input';
  toolUseId?: string;
  tombstone: string;
  segmentId?: string;
}

export type CodexRefusalCode =
  | 'line_not_found'
  | 'uuid_mismatch'
  | 'not_an_output'
  | 'call_mismatch'
  | 'not_text_output'
  | 'not_smaller'
  | 'empty_tombstone'
  | 'tool_input'
  | 'duplicate_action'
  | 'unsplicable';

export interface CodexAppliedAction {
  action: CodexForkAction;
  line: number;
  callId: string;
  /** The output text removed (for the archive). */
  removed: string;
  bytesBefore: number;
  bytesAfter: number;
}

export interface CodexRefusedAction {
  action: CodexForkAction;
  code: CodexRefusalCode;
  message: string;
}

export interface CodexForkResult {
  /** Null when the whole file cannot be forked (see `refusedFile`). */
  lines: string[] | null;
  newSessionId: string;
  originalSessionId: string | null;
  /** Why no fork was built at all. */
  refusedFile: string | null;
  applied: CodexAppliedAction[];
  refused: CodexRefusedAction[];
  touchedLines: number[];
}

const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);

/**
 * A fork of a rollout: every line in place, the session id renamed wherever it is a whole JSON value,
 * and the outputs named by `actions` replaced by their tombstones, spliced into the line so that no
 * other byte moves. Ordinals, `world_state`, `turn_context` and `compacted` records are kept as they
 * are. No I/O: lines in, lines out (see CodexForkBuilder for the same in two passes over a file).
 */
export function buildCodexFork(originalLines: readonly string[], actions: readonly CodexForkAction[], newSessionId: string): CodexForkResult {
  const builder = new CodexForkBuilder(actions, newSessionId);
  originalLines.forEach((text, i) => builder.index(text, i + 1));
  const outcome = builder.prepare();
  const lines = outcome.refusedFile === null ? originalLines.map((text, i) => builder.transform(text, i + 1)) : null;
  return { ...outcome, lines };
}

/**
 * The fork built in two passes over a rollout, never holding it: the index pass keeps the session
 * header and the lines the actions name (and, when an action does not name its call, the call lines'
 * names), `prepare` splices the tombstones into those lines, and the transform pass renames the
 * session id line by line. A file refused as a whole passes through unchanged.
 */
export class CodexForkBuilder {
  private readonly lines = new Set<number>();
  private readonly held = new Map<number, string>();
  private first: { record: JsonObject | null } | null = null;
  private readonly changed = new Map<number, string>();
  private outcome: Omit<CodexForkResult, 'lines'> | null = null;
  private oldId: string | null = null;

  constructor(
    private readonly actions: readonly CodexForkAction[],
    private readonly newSessionId: string,
  ) {
    for (const a of actions) this.lines.add(a.line);
  }

  index(text: string, line: number): void {
    if (this.first === null && text.trim() !== '') this.first = { record: parseObject(text) };
    if (this.lines.has(line)) this.held.set(line, text);
  }

  /** The output text on a line the index pass held (null when it holds no text output): what a fill derives from. */
  outputAt(line: number): string | null {
    const text = this.held.get(line);
    const record = text === undefined ? null : parseObject(text);
    if (!record) return null;
    const item = record['type'] === 'response_item' && isObject(record['payload']) ? (record['payload'] as JsonObject) : record;
    const output = item['output'];
    return typeof output === 'string' && OUTPUT_TYPES.has(str(item['type']) ?? '') ? output : null;
  }

  prepare(): Omit<CodexForkResult, 'lines'> {
    if (this.outcome) return this.outcome;
    const r = this.first?.record ?? null;
    const meta = r && r['type'] === 'session_meta' && isObject(r['payload']) ? r['payload'] : r;
    const oldId = meta ? (str(meta['id']) ?? null) : null;
    this.oldId = oldId;
    const base: Omit<CodexForkResult, 'lines'> = { newSessionId: this.newSessionId, originalSessionId: oldId, refusedFile: null, applied: [], refused: [], touchedLines: [] };
    if (!meta || oldId === null) return (this.outcome = { ...base, refusedFile: 'the file has no session header with an id: it is not a Codex rollout this fork can rename' });
    if (isObject(meta['history_base'])) {
      return (this.outcome = {
        ...base,
        refusedFile: 'this rollout was written by `codex exec fork` and holds only its own records: it resumes through its parent file, so a copy of it alone would not resume',
      });
    }
    const source = meta['source'];
    if (isObject(source) && source['subagent'] !== undefined) {
      return (this.outcome = {
        ...base,
        refusedFile: "this rollout is a subagent's thread: Codex runs and resumes it from its parent session, so fork the parent session instead",
      });
    }
    if (this.newSessionId === oldId) return (this.outcome = { ...base, refusedFile: 'the new session id is the old one' });
    const renamed = (line: number): string | undefined => {
      const own = this.changed.get(line);
      if (own !== undefined) return own;
      const text = this.held.get(line);
      return text === undefined ? undefined : renameIdValues(text, oldId, this.newSessionId).text;
    };
    const seen = new Set<number>();
    for (const action of this.actions) {
      const outcome = applyOne(action, renamed, seen);
      if ('code' in outcome) base.refused.push(outcome);
      else {
        base.applied.push(outcome.applied);
        this.changed.set(outcome.applied.line, outcome.text);
        seen.add(outcome.applied.line);
      }
    }
    return (this.outcome = { ...base, touchedLines: [...seen].sort((a, b) => a - b) });
  }

  transform(text: string, line: number): string {
    const outcome = this.prepare();
    if (outcome.refusedFile !== null || this.oldId === null) return text;
    return this.changed.get(line) ?? renameIdValues(text, this.oldId, this.newSessionId).text;
  }
}

function applyOne(
  action: CodexForkAction,
  lineText: (line: number) => string | undefined,
  seen: Set<number>,
): { applied: CodexAppliedAction; text: string } | CodexRefusedAction {
  const refuse = (code: CodexRefusalCode, message: string): CodexRefusedAction => ({ action, code, message });
  const line = action.line;
  if (action.target === 'tool-input') return refuse('tool_input', `line ${line}: Codex sends call inputs again on resume; only outputs are tombstoned`);
  if (action.tombstone.trim() === '') return refuse('empty_tombstone', 'the tombstone is empty');
  if (seen.has(line)) return refuse('duplicate_action', `line ${line} is named twice`);
  if (action.uuid !== undefined && action.uuid !== `L${line}`) return refuse('uuid_mismatch', `node ${action.uuid} is not on line ${line}`);
  const text = lineText(line);
  const record = text === undefined ? null : parseObject(text);
  if (text === undefined || !record) return refuse('line_not_found', `line ${line} is not a JSON record`);
  // The 2025 bare generation writes items without an envelope.
  const inEnvelope = record['type'] === 'response_item' && isObject(record['payload']);
  const item = inEnvelope ? (record['payload'] as JsonObject) : record;
  const type = str(item['type']) ?? '';
  if (!OUTPUT_TYPES.has(type)) return refuse('not_an_output', `line ${line} holds a ${type || 'record'}, not a tool output`);
  const callId = str(item['call_id']) ?? '';
  if (action.toolUseId !== undefined && action.toolUseId !== callId) return refuse('call_mismatch', `line ${line} answers ${callId}, not ${action.toolUseId}`);
  const output = item['output'];
  if (typeof output !== 'string') return refuse('not_text_output', `the output on line ${line} is not a text`);
  const bytesBefore = utf8Bytes(output);
  const bytesAfter = utf8Bytes(action.tombstone);
  if (bytesAfter >= bytesBefore) return refuse('not_smaller', `the tombstone (${bytesAfter} B) is not smaller than the output on line ${line} (${bytesBefore} B)`);
  const span = valueSpan(text, inEnvelope ? ['payload', 'output'] : ['output']);
  if (!span) return refuse('unsplicable', `the output value on line ${line} could not be located in the text`);
  const next = text.slice(0, span.start) + JSON.stringify(action.tombstone) + text.slice(span.end);
  const back = parseObject(next);
  const backItem = back ? (inEnvelope ? back['payload'] : back) : null;
  if (!isObject(backItem) || backItem['output'] !== action.tombstone) return refuse('unsplicable', `splicing the tombstone into line ${line} did not give the expected record`);
  return { applied: { action, line, callId, removed: output, bytesBefore, bytesAfter }, text: next };
}
