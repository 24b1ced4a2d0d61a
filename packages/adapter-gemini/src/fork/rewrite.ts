import { isObject, type Json, type JsonObject, type RemovedPayload } from '@glassbox/core';

/** One copy of a call's output found in a record: where it is and how to replace it. */
export interface OutputCopy {
  /** JSON path inside the record, for the archive (`toolCalls[0].result[0].functionResponse.response.output`). */
  path: string;
  text: string;
  /** The function response the model reads (every copy is: 0.61 sends both), or a client-side mirror. */
  sentToModel: boolean;
  replace(tombstone: string): void;
}

/** Which copy of a call's output a window node shows: the reply's recorded call results, or a function-response message. */
export type CopyKind = 'calls' | 'content';

/**
 * The messages and copy kinds a window node may stand for, most likely first: a message of the
 * history with the node's id (for a function response, a user message of 0.39+ — which 0.61 itself
 * names `<reply id>_response` when it records a reply's results), else, for `<id>_response`, the turn
 * the client rebuilds from reply `<id>`'s `toolCalls` results. A `+` the window adds to a repeated id
 * is dropped. The builder takes the first that holds a copy.
 */
export function targetsOf(nodeUuid: string): { messageId: string; kind: CopyKind }[] {
  const id = nodeUuid.replace(/\++$/, '');
  const out: { messageId: string; kind: CopyKind }[] = [{ messageId: id, kind: 'content' }];
  if (id.endsWith('_response')) out.push({ messageId: id.slice(0, -'_response'.length), kind: 'calls' });
  return out;
}

/** Every version of message `messageId` a record holds: the record itself, or entries of its `$set.messages` or `messages` list. */
export function messagesIn(record: JsonObject, messageId: string): { message: JsonObject; path: string }[] {
  if (record['id'] === messageId) return [{ message: record, path: '' }];
  const out: { message: JsonObject; path: string }[] = [];
  const set = record['$set'];
  const lists: [Json | undefined, string][] = [[isObject(set) ? set['messages'] : undefined, '$set.messages'], [record['messages'], 'messages']];
  for (const [list, at] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((m, i) => {
      if (isObject(m) && m['id'] === messageId) out.push({ message: m, path: `${at}[${i}]` });
    });
  }
  return out;
}

/**
 * The copies of call `callId`'s output of one kind in one message: in its `toolCalls` (a call's
 * `result` list of function responses, or its plain-string `result` in older clients), or in its
 * content's function-response parts. An error response (`{"error": …}`) has no `output` and is never
 * a copy: it is not removed. A call's `resultDisplay` is the client's own display, never sent, and kept.
 */
export function outputCopies(message: JsonObject, callId: string, kind: CopyKind, base = ''): OutputCopy[] {
  const out: OutputCopy[] = [];
  const at = (p: string) => (base ? `${base}.${p}` : p);
  if (kind === 'calls') {
    const calls = message['toolCalls'];
    if (!Array.isArray(calls)) return out;
    calls.forEach((c, i) => {
      if (!isObject(c) || c['id'] !== callId) return;
      const result = c['result'];
      if (typeof result === 'string') out.push({ path: at(`toolCalls[${i}].result`), text: result, sentToModel: true, replace: (t) => void (c['result'] = t) });
      else if (Array.isArray(result)) out.push(...responseCopies(result, callId, at(`toolCalls[${i}].result`)));
    });
    return out;
  }
  const content = message['content'];
  if (Array.isArray(content)) out.push(...responseCopies(content, callId, at('content')));
  return out;
}

function responseCopies(parts: Json[], callId: string, base: string): OutputCopy[] {
  const out: OutputCopy[] = [];
  parts.forEach((p, i) => {
    if (!isObject(p)) return;
    const fr = p['functionResponse'];
    if (!isObject(fr) || fr['id'] !== callId || !isObject(fr['response'])) return;
    const response = fr['response'];
    const text = response['output'];
    if (typeof text === 'string') out.push({ path: `${base}[${i}].functionResponse.response.output`, text, sentToModel: true, replace: (t) => void (response['output'] = t) });
  });
  return out;
}

/** Every copy of call `callId`'s output anywhere in a record (both kinds, every message), with the message and kind it belongs to: what the validator compares. */
export function allOutputCopies(record: Json, callId: string): (OutputCopy & { group: string })[] {
  const out: (OutputCopy & { group: string })[] = [];
  walk(record, '', (node, path) => {
    const id = node['id'];
    if (typeof id === 'string' && (Array.isArray(node['toolCalls']) || Array.isArray(node['content']))) {
      for (const kind of ['calls', 'content'] as const) for (const c of outputCopies(node, callId, kind, path)) out.push({ ...c, group: `${id}/${kind}` });
    }
  });
  return out;
}

function walk(value: Json, path: string, visit: (node: JsonObject, path: string) => void): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, `${path}[${i}]`, visit));
    return;
  }
  if (!isObject(value)) return;
  visit(value, path);
  for (const [k, v] of Object.entries(value)) if (v !== null && typeof v === 'object') walk(v, path ? `${path}.${k}` : k, visit);
}

export function removedOf(copy: OutputCopy): RemovedPayload {
  return { path: copy.path.replace(/^\./, ''), text: copy.text, sentToModel: copy.sentToModel };
}

/**
 * Renames the session in a record: the session record's and a `$set`'s `sessionId` (a resume writes
 * one), and a document's own. A subagent chat's records name their own id, never the parent's.
 * Returns the id it replaced, or null when the record names none.
 */
export function renameSession(record: JsonObject, newId: string): string | null {
  const set = record['$set'];
  if (isObject(set) && typeof set['sessionId'] === 'string') {
    const old = set['sessionId'];
    set['sessionId'] = newId;
    return old;
  }
  if (typeof record['sessionId'] === 'string' && typeof record['projectHash'] === 'string') {
    const old = record['sessionId'];
    record['sessionId'] = newId;
    return old;
  }
  return null;
}
