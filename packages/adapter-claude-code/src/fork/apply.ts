import { buildForkFromLines, keyValues, type ForkBuilder, type ForkOutcome, type ForkPrepared, type LineRef, type LineSplice, type Session, type TombstoneFill } from '@glassbox/core';
import { isObject, str, type Json } from '../record-types';
import { isCompact, keyValuesInBytes, parseRecord, parseShared, renameSessionIdText, rewriteSessionId, sessionIdSplice, type ParsedLine } from './json-line';
import { WRITE_TOOL_FIELDS, payloadBytes, textOf, tombstoneMirror, tombstoneToolInput } from './payloads';
import type { AppliedAction, ForkAction, ForkResult, RefusedAction, RemovedPayload } from './types';
import { COPY_RECORD, idsInCopy, isCopyLine, tombstoneCopies } from './copies';

/**
 * Builds the fork of a transcript: the same lines in the same order, the payloads named by
 * `actions` replaced by their tombstones, and every record's `sessionId` set to `newSessionId`.
 * Lines no action touches change in nothing but their session id; lines that are not JSON pass
 * through as they are. An action that cannot be applied exactly is refused (listed, not thrown),
 * and its line is left as it was.
 *
 * It streams (see ForkBuilder): the index pass keeps only the lines the actions name, found by the
 * `"uuid":"…"` and `"id":"…"` keys Claude Code writes (a line is parsed only when it names one of
 * them), so memory follows the actions, not the file.
 */
export function createForkBuilder(actions: readonly ForkAction[], newSessionId: string): ClaudeForkBuilder {
  return new ClaudeForkBuilder(actions, newSessionId);
}

/** The whole fork in memory: lines in, lines out (small files and tests). */
export function buildFork(originalLines: readonly string[], actions: readonly ForkAction[], newSessionId: string): ForkResult {
  return buildForkFromLines(createForkBuilder(actions, newSessionId), originalLines) as ForkResult;
}

export class ClaudeForkBuilder implements ForkBuilder {
  private readonly uuids: Set<string>;
  private readonly namedLines = new Set<number>();
  /** Tool ids whose names the actions need; null when some action does not name its call (then every tool's). */
  private readonly wantedTools: Set<string> | null;
  /** The last line (0-based) of each uuid the actions name: a record written twice is the later line. */
  private readonly lineOfUuid = new Map<string, number>();
  private readonly toolNames = new Map<string, string>();
  /** Original text of the lines the actions may touch, by 0-based index. */
  private readonly held = new Map<number, string>();
  private readonly sessionIds = new Set<string>();
  /** Lines (0-based) of records that repeat a payload the actions may remove (copies.ts). */
  private readonly copyLines = new Set<number>();
  /** The fork's text of each touched line, by 1-based line. */
  private readonly changed = new Map<number, string>();
  private prepared: ForkPrepared | null = null;
  private readonly newIdBytes: Buffer;

  constructor(
    private readonly actions: readonly ForkAction[],
    private readonly newSessionId: string,
  ) {
    this.newIdBytes = Buffer.from(newSessionId, 'utf8');
    this.uuids = new Set(actions.map((a) => a.uuid));
    for (const a of actions) if (a.line !== undefined) this.namedLines.add(a.line);
    const ids = actions.map((a) => a.toolUseId);
    this.wantedTools = ids.every((id) => id !== undefined) ? new Set(ids as string[]) : null;
  }

  index(text: string, line: number): void {
    if (this.namedLines.has(line)) this.held.set(line - 1, text);
    if (this.actions.length > 0 && isCopyLine(text)) this.noteCopy(text, line);
    if (this.uuids.size > 0 && keyValues(text, '"uuid":"').some((v) => this.uuids.has(v))) {
      const uuid = str(parseRecord(text)?.record['uuid']);
      if (uuid !== undefined && this.uuids.has(uuid)) {
        this.lineOfUuid.set(uuid, line - 1);
        this.held.set(line - 1, text);
      }
    }
    if (this.actions.length > 0 && text.includes('"tool_use"')) {
      const wanted = this.wantedTools;
      if (wanted === null || keyValues(text, '"id":"').some((v) => wanted.has(v))) this.noteToolNames(text);
    }
  }

  indexBytes(bytes: Uint8Array, line: number): void {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let text: string | null = null;
    const decoded = (): string => (text ??= buf.toString('utf8'));
    if (this.namedLines.has(line)) this.held.set(line - 1, decoded());
    if (this.actions.length > 0 && buf.subarray(0, COPY_HEAD.length).equals(COPY_HEAD)) this.noteCopy(decoded(), line);
    if (this.uuids.size > 0 && keyValuesInBytes(buf, '"uuid":"').some((v) => this.uuids.has(v))) {
      const uuid = str(parseRecord(decoded())?.record['uuid']);
      if (uuid !== undefined && this.uuids.has(uuid)) {
        this.lineOfUuid.set(uuid, line - 1);
        this.held.set(line - 1, decoded());
      }
    }
    if (this.actions.length > 0 && buf.indexOf('"tool_use"', 0, 'latin1') >= 0) {
      const wanted = this.wantedTools;
      if (wanted === null || keyValuesInBytes(buf, '"id":"').some((v) => wanted.has(v))) this.noteToolNames(decoded());
    }
  }

  /**
   * The lines the index needs, placed by the plan's parse: each action's own line (which must hold
   * its record there) and the line of each call whose results it replaces (for the tool's name).
   * Fed only these, the builder prepares what a pass over every line would: an action applies to the
   * line it names when that line holds its record, and every name it needs is on those lines.
   */
  indexLines(session: Session): readonly LineRef[] | null {
    if (this.wantedTools === null) return null;
    const refs = new Map<number, LineRef>();
    const place = (uuid: string, line: number | undefined): boolean => {
      const node = session.nodes.get(uuid);
      if (!node || (line !== undefined && node.line !== line)) return false;
      refs.set(node.line, { line: node.line, offset: node.offset, length: node.length });
      return true;
    };
    for (const a of this.actions) if (a.line === undefined || !place(a.uuid, a.line)) return null;
    for (const id of this.wantedTools) {
      const call = session.toolCalls.get(id);
      if (!call || !place(call.useUuid, call.useLine)) return null;
      for (const copy of session.payloadCopies?.get(id) ?? []) refs.set(copy.line, copy);
    }
    return [...refs.values()].sort((a, b) => a.line - b.line);
  }

  prepare(fill?: TombstoneFill): ForkPrepared {
    if (this.prepared) return this.prepared;
    const actions = fill ? this.filled(fill) : this.actions;
    const cache = new Map<number, ParsedLine | null>();
    const at = (i: number): ParsedLine | null => {
      if (!cache.has(i)) {
        const text = this.held.get(i);
        cache.set(i, text === undefined || text.trim() === '' ? null : parseRecord(text));
      }
      return cache.get(i) ?? null;
    };
    const applied: AppliedAction[] = [];
    const refused: RefusedAction[] = [];
    const touched = new Set<number>();
    const seen = new Set<string>();
    for (const action of actions) {
      const key = `${action.uuid}:${action.line ?? this.lineOfUuid.get(action.uuid) ?? ''}:${action.blockIndex}:${action.target}`;
      if (seen.has(key)) {
        refused.push({ action, code: 'duplicate_action', message: `the plan names ${key} twice` });
        continue;
      }
      const outcome = applyOne(action, (i) => this.held.get(i), at, this.lineOfUuid, this.toolNames);
      if ('code' in outcome) refused.push(outcome);
      else {
        seen.add(key);
        applied.push(outcome);
        touched.add(outcome.line);
      }
    }
    for (const index of this.copyLines) {
      const p = at(index);
      if (!p || !isCompact(p, this.held.get(index) as string)) continue;
      if (tombstoneCopies(p.record, applied) > 0) touched.add(index + 1);
    }
    for (const line of touched) {
      const p = at(line - 1) as ParsedLine;
      const old = p.record['sessionId'];
      if (typeof old === 'string') p.record['sessionId'] = this.newSessionId;
      if (old !== undefined && p.record['session_id'] === old) p.record['session_id'] = this.newSessionId;
      this.changed.set(line, JSON.stringify(p.record));
    }
    this.prepared = { applied, refused, touchedLines: [...touched].sort((a, b) => a - b) };
    return this.prepared;
  }

  transform(text: string, line: number): string {
    const { own, parsed, sid } = this.look(text, line);
    if (own !== undefined) return own;
    if (!sid) return text;
    // A line that cannot be rewritten safely keeps its old id; the validator then refuses the fork.
    return renameSessionIdText(text, this.newSessionId) ?? rewriteSessionId(text, parsed as ParsedLine, this.newSessionId) ?? text;
  }

  transformBytes(bytes: Uint8Array, text: string, line: number): string | LineSplice {
    const { own, parsed, sid } = this.look(text, line);
    if (own !== undefined) return own;
    if (!sid) return { start: 0, end: 0, insert: NOTHING };
    return sessionIdSplice(bytes, this.newIdBytes) ?? rewriteSessionId(text, parsed as ParsedLine, this.newSessionId) ?? text;
  }

  /**
   * A line of pass 2: its rewritten text when an action touched it, and the record's own session id,
   * read from the line parsed once for the whole pass (the validator reads the same parse). Lines that
   * are not records pass through as they are.
   */
  private look(text: string, line: number): { own: string | undefined; parsed: ParsedLine | null; sid: string | undefined } {
    if (!this.prepared) this.prepare();
    const parsed = text.trim() === '' ? null : parseShared(text);
    const sid = parsed ? str(parsed.record['sessionId']) : undefined;
    if (sid) this.sessionIds.add(sid);
    return { own: this.changed.get(line), parsed, sid };
  }

  finish(): ForkOutcome {
    const prepared = this.prepared ?? this.prepare();
    return { ...prepared, newSessionId: this.newSessionId, originalSessionIds: [...this.sessionIds] };
  }

  /** A record that may repeat a payload: held when it names a tool call the actions touch. */
  private noteCopy(text: string, line: number): void {
    const wanted = this.wantedTools;
    if (wanted !== null && !keyValues(text, '"tool_use_id":"').some((v) => wanted.has(v)) && !keyValues(text, '"id":"').some((v) => wanted.has(v))) return;
    const p = parseRecord(text);
    if (!p || p.record['type'] !== COPY_RECORD) return;
    if (idsInCopy(p.record).some((id) => wanted === null || wanted.has(id))) {
      this.copyLines.add(line - 1);
      this.held.set(line - 1, text);
    }
  }

  /** Tool names of the tool_use blocks of an assistant record. */
  private noteToolNames(text: string): void {
    const p = parseRecord(text);
    if (!p || p.record['type'] !== 'assistant') return;
    const message = p.record['message'];
    const content = isObject(message) ? message['content'] : undefined;
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (isObject(b) && b['type'] === 'tool_use' && typeof b['id'] === 'string') this.toolNames.set(b['id'], str(b['name']) ?? 'tool');
    }
  }

  /**
   * The actions with the tombstones `fill` derives from what each replaces: a dry run of those
   * actions (in order, on copies of their lines) with a one-character tombstone gives the payload.
   */
  private filled(fill: TombstoneFill): ForkAction[] {
    const later = this.actions.map((a) => fill(a));
    if (later.every((f) => f === null)) return [...this.actions];
    const dry = new Map<number, ParsedLine | null>();
    const at = (i: number): ParsedLine | null => {
      if (!dry.has(i)) {
        const text = this.held.get(i);
        dry.set(i, text === undefined || text.trim() === '' ? null : parseRecord(text));
      }
      return dry.get(i) ?? null;
    };
    return this.actions.map((action, i) => {
      const f = later[i];
      if (!f) return action;
      const outcome = applyOne({ ...action, tombstone: '-' }, (j) => this.held.get(j), at, this.lineOfUuid, this.toolNames);
      const removed = 'code' in outcome ? undefined : outcome.removed.find((r) => r.sentToModel);
      return removed ? { ...action, tombstone: f(removed) } : action;
    });
  }
}

function applyOne(
  action: ForkAction,
  textAt: (index: number) => string | undefined,
  lineAt: (index: number) => ParsedLine | null,
  lineOfUuid: ReadonlyMap<string, number>,
  toolNames: ReadonlyMap<string, string>,
): AppliedAction | RefusedAction {
  const refuse = (code: RefusedAction['code'], message: string, line?: number): RefusedAction =>
    line === undefined ? { action, code, message } : { action, code, message, line };
  if (action.tombstone.trim() === '') return refuse('empty_tombstone', 'the tombstone is empty');
  let index = lineOfUuid.get(action.uuid);
  if (action.line !== undefined) {
    const named = lineAt(action.line - 1);
    if (named && named.record['uuid'] === action.uuid) index = action.line - 1;
    else if (index !== undefined) return refuse('line_mismatch', `record ${action.uuid} is on line ${index + 1}, not ${action.line}`, action.line);
  }
  if (index === undefined) return refuse('record_not_found', `no record has uuid ${action.uuid}`);
  const p = lineAt(index);
  const line = index + 1;
  if (!p) return refuse('record_not_found', `line ${line} is not a JSON record`, line);
  if (!isCompact(p, textAt(index) as string)) {
    return refuse('not_compact_json', `line ${line} is not in Claude Code's compact JSON form; re-serialising it would change other bytes`, line);
  }
  const message = p.record['message'];
  const content = isObject(message) ? message['content'] : undefined;
  const block: Json | undefined = Array.isArray(content) ? content[action.blockIndex] : undefined;
  if (!isObject(block)) return refuse('block_not_found', `record ${action.uuid} (line ${line}) has no content block ${action.blockIndex}`, line);
  const at = `message.content[${action.blockIndex}]`;

  if (action.target === 'tool-input') {
    if (p.record['type'] !== 'assistant' || block['type'] !== 'tool_use') {
      return refuse('wrong_block', `block ${action.blockIndex} of line ${line} is not a tool_use`, line);
    }
    const id = str(block['id']);
    if (action.toolUseId !== undefined && id !== action.toolUseId) {
      return refuse('tool_use_mismatch', `block ${action.blockIndex} of line ${line} is tool_use ${id ?? '?'}, not ${action.toolUseId}`, line);
    }
    const name = str(block['name']) ?? 'tool';
    const input = block['input'];
    if (!WRITE_TOOL_FIELDS[name] || !isObject(input)) {
      return refuse('not_a_write_tool', `tool_use ${id ?? '?'} on line ${line} is ${name}; only Write/Edit/MultiEdit/NotebookEdit inputs are tombstoned`, line);
    }
    const before = JSON.stringify(input);
    const removed = tombstoneToolInput(name, input, action.tombstone, at);
    if (removed.length === 0) return refuse('not_smaller', `the tombstone is not shorter than the ${name} input on line ${line}`, line);
    return { action, line, toolName: name, removed, bytesBefore: byteLen(before), bytesAfter: byteLen(JSON.stringify(input)) };
  }

  if (p.record['type'] !== 'user' || block['type'] !== 'tool_result') {
    return refuse('wrong_block', `block ${action.blockIndex} of line ${line} is not a tool_result`, line);
  }
  const id = str(block['tool_use_id']) ?? '';
  if (action.toolUseId !== undefined && id !== action.toolUseId) {
    return refuse('tool_use_mismatch', `block ${action.blockIndex} of line ${line} answers ${id}, not ${action.toolUseId}`, line);
  }
  const mirror = p.record['toolUseResult'];
  if (block['is_error'] === true || typeof mirror === 'string') {
    return refuse('error_result', `the result on line ${line} is an error; errors are never evicted`, line);
  }
  const original = block['content'];
  if (original === undefined || original === null) return refuse('not_smaller', `the result on line ${line} has no content`, line);
  if (Array.isArray(original) && original.some((b) => isObject(b) && b['type'] === 'tool_reference')) {
    // A ToolSearch result loads tools: the client expands it into their definitions (and adds "Tool loaded.").
    return refuse('loads_tools', `the result on line ${line} loads deferred tools (tool_reference); removing it would unload them`, line);
  }
  const bytesBefore = payloadBytes(original);
  const bytesAfter = byteLen(action.tombstone);
  if (bytesAfter >= bytesBefore || action.tombstone.length >= textOf(original).length) {
    return refuse('not_smaller', `the tombstone (${bytesAfter} B) is not smaller than the result on line ${line} (${bytesBefore} B)`, line);
  }
  const toolName = toolNames.get(id) ?? 'tool';
  const removed: RemovedPayload[] = [{ path: `${at}.content`, text: textOf(original), sentToModel: true }];
  block['content'] = action.tombstone;
  if (isObject(mirror)) removed.push(...tombstoneMirror(toolName, mirror, original, action.tombstone));
  return { action, line, toolName, removed, bytesBefore, bytesAfter };
}

const NOTHING = new Uint8Array(0);
const COPY_HEAD = Buffer.from(`{"type":"${COPY_RECORD}"`, 'latin1');

function byteLen(text: string): number {
  return payloadBytes(text);
}
