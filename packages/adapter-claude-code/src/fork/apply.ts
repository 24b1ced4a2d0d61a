import { isObject, str, type Json } from '../record-types';
import { isCompact, parseRecord, renameSessionIdText, rewriteSessionId, type ParsedLine } from './json-line';
import { WRITE_TOOL_FIELDS, payloadBytes, textOf, tombstoneMirror, tombstoneToolInput } from './payloads';
import type { AppliedAction, ForkAction, ForkResult, RefusedAction, RemovedPayload } from './types';

/**
 * Builds the fork of a transcript: the same lines in the same order, the payloads named by
 * `actions` replaced by their tombstones, and every record's `sessionId` set to `newSessionId`.
 * Lines no action touches change in nothing but their session id; lines that are not JSON pass
 * through as they are. An action that cannot be applied exactly is refused (listed, not thrown),
 * and its line is left as it was. No I/O: lines in, lines out.
 */
export function buildFork(originalLines: readonly string[], actions: readonly ForkAction[], newSessionId: string): ForkResult {
  // One pass to index the file; parsed records are not kept (memory follows one line), except the
  // few lines actions touch, parsed again on demand.
  const lineOfUuid = new Map<string, number>();
  const toolNames = new Map<string, string>();
  const sessionIds: string[] = [];
  const kind = new Uint8Array(originalLines.length);
  originalLines.forEach((text, i) => {
    const p = text.trim() === '' ? null : parseRecord(text);
    if (!p) return;
    const sid = str(p.record['sessionId']);
    kind[i] = sid ? HAS_SESSION_ID : RECORD;
    if (sid && !sessionIds.includes(sid)) sessionIds.push(sid);
    const uuid = str(p.record['uuid']);
    // A uuid written twice (a resumed copy): the later line is the one the client keeps.
    if (uuid) lineOfUuid.set(uuid, i);
    const message = p.record['message'];
    const content = isObject(message) ? message['content'] : undefined;
    if (p.record['type'] === 'assistant' && Array.isArray(content)) {
      for (const b of content) {
        if (isObject(b) && b['type'] === 'tool_use' && typeof b['id'] === 'string') toolNames.set(b['id'], str(b['name']) ?? 'tool');
      }
    }
  });
  const cache = new Map<number, ParsedLine | null>();
  const at = (i: number): ParsedLine | null => {
    if (!cache.has(i)) cache.set(i, kind[i] ? parseRecord(originalLines[i] as string) : null);
    return cache.get(i) ?? null;
  };

  const applied: AppliedAction[] = [];
  const refused: RefusedAction[] = [];
  const touched = new Set<number>();
  const seen = new Set<string>();
  for (const action of actions) {
    const key = `${action.uuid}:${action.line ?? lineOfUuid.get(action.uuid) ?? ''}:${action.blockIndex}:${action.target}`;
    if (seen.has(key)) {
      refused.push({ action, code: 'duplicate_action', message: `the plan names ${key} twice` });
      continue;
    }
    const outcome = applyOne(action, originalLines, at, lineOfUuid, toolNames);
    if ('code' in outcome) refused.push(outcome);
    else {
      seen.add(key);
      applied.push(outcome);
      touched.add(outcome.line - 1);
    }
  }

  const lines = originalLines.map((line, i) => {
    if (kind[i] !== HAS_SESSION_ID && !touched.has(i)) return line;
    if (touched.has(i)) {
      const p = at(i) as ParsedLine;
      if (typeof p.record['sessionId'] === 'string') p.record['sessionId'] = newSessionId;
      return JSON.stringify(p.record);
    }
    // A line that cannot be rewritten safely keeps its old id; the validator then refuses the fork.
    return renameSessionIdText(line, newSessionId) ?? rewriteSessionId(line, at(i) as ParsedLine, newSessionId) ?? line;
  });
  return {
    lines,
    newSessionId,
    originalSessionIds: sessionIds,
    applied,
    refused,
    touchedLines: [...touched].sort((a, b) => a - b).map((i) => i + 1),
  };
}

const RECORD = 1;
const HAS_SESSION_ID = 2;

function applyOne(
  action: ForkAction,
  originalLines: readonly string[],
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
  if (!isCompact(p, originalLines[index] as string)) {
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

function byteLen(text: string): number {
  return payloadBytes(text);
}
