import { isObject, str, type Json, type JsonObject } from '../record-types';
import { WRITE_TOOL_FIELDS, payloadBytes } from './payloads';
import type { CheckFailure } from './validate';
import { COPY_RECORD } from './copies';

/** A line of the original or the fork, with its record when it is one. */
export interface Rec {
  line: number;
  text: string;
  record: JsonObject | null;
}

export type Fail = (id: 'untouched' | 'payloads-only' | 'thinking', f: CheckFailure) => void;

export function contentOf(r: JsonObject): Json | undefined {
  const m = r['message'];
  return isObject(m) ? m['content'] : undefined;
}

type Path = (string | number)[];

function fmt(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** Paths where two JSON values differ: a differing subtree is reported once, at its root. */
function diffPaths(a: Json | undefined, b: Json | undefined, path: Path, out: Path[]): void {
  if (a === b) return;
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diffPaths(a[k], b[k], [...path, k], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffPaths(x, b[i], [...path, i], out));
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
}

function getAt(v: Json | undefined, path: Path): Json | undefined {
  let cur: Json | undefined = v;
  for (const p of path) {
    if (cur === undefined || cur === null || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? cur[p as number] : (cur as JsonObject)[p as string];
  }
  return cur;
}

function setAt(v: JsonObject, path: Path, value: Json | undefined): void {
  let cur: Json = v;
  for (let i = 0; i < path.length - 1; i++) cur = (cur as JsonObject)[path[i] as string] as Json;
  const last = path[path.length - 1] as string;
  if (value === undefined) delete (cur as JsonObject)[last];
  else (cur as JsonObject)[last] = value;
}

/** Is this path a heavy payload a fork may replace, given the original record? */
function payloadPath(o: JsonObject, path: Path): 'result' | 'input' | 'mirror' | null {
  if (path[0] === 'toolUseResult') return 'mirror';
  if (path[0] !== 'message' || path[1] !== 'content' || typeof path[2] !== 'number') return null;
  const block = getAt(o, path.slice(0, 3));
  if (!isObject(block)) return null;
  // A logged copy of a sent message (copies.ts) holds the same payloads under its message's role.
  const message = o['message'];
  const type = o['type'] === COPY_RECORD ? (isObject(message) ? message['role'] : undefined) : o['type'];
  if (type === 'user' && block['type'] === 'tool_result' && path.length === 4 && path[3] === 'content') {
    return block['is_error'] === true ? null : 'result';
  }
  if (type === 'assistant' && block['type'] === 'tool_use' && path[3] === 'input') {
    const fields = WRITE_TOOL_FIELDS[str(block['name']) ?? ''] ?? [];
    const rest = path.slice(4);
    if (rest.length === 1 && typeof rest[0] === 'string' && fields.includes(rest[0])) return 'input';
    if (rest.length === 3 && rest[0] === 'edits' && typeof rest[1] === 'number' && rest[2] === 'new_string' && fields.includes('edits[].new_string')) return 'input';
  }
  return null;
}

/**
 * Checks a changed line: only heavy payloads differ, each replaced by a shorter tombstone text, the
 * thinking blocks are untouched, and the line is serialised as Claude Code writes it.
 */
export function compareTouched(o: Rec, f: Rec, fail: Fail, oid: string | undefined, forkId: string | null): void {
  const orec = o.record as JsonObject;
  const frec = f.record as JsonObject;
  const uuid = str(orec['uuid']);
  // Thinking blocks: the API rejects modified ones.
  const ob = contentOf(orec);
  const fb = contentOf(frec);
  if (Array.isArray(ob)) {
    ob.forEach((b, j) => {
      if (!isObject(b) || (b['type'] !== 'thinking' && b['type'] !== 'redacted_thinking')) return;
      const other = Array.isArray(fb) ? fb[j] : undefined;
      if (JSON.stringify(other) !== JSON.stringify(b)) fail('thinking', { line: o.line, uuid, detail: `thinking block ${j} differs` });
    });
  }
  const paths: Path[] = [];
  diffPaths(orec, frec, [], paths);
  let result = false;
  let mirror = false;
  for (const p of paths) {
    if (p.length === 1 && (p[0] === 'sessionId' || (p[0] === 'session_id' && orec['session_id'] === oid))) continue;
    const kind = payloadPath(orec, p);
    if (!kind) {
      const isThinking = (() => {
        const b = getAt(orec, p.slice(0, 3));
        return isObject(b) && (b['type'] === 'thinking' || b['type'] === 'redacted_thinking');
      })();
      if (!isThinking) fail('untouched', { line: o.line, uuid, detail: `${fmt(p)} changed, and it is not a payload a fork may replace` });
      continue;
    }
    if (kind === 'mirror') {
      mirror = true;
      continue;
    }
    result ||= kind === 'result';
    const before = getAt(orec, p);
    const after = getAt(frec, p);
    if (typeof after !== 'string' || after.trim() === '') {
      fail('payloads-only', { line: o.line, uuid, detail: `${fmt(p)} was replaced by something other than a tombstone text` });
    } else if (payloadBytes(after) >= payloadBytes(before) || after.length >= (typeof before === 'string' ? before : JSON.stringify(before ?? '')).length) {
      fail('payloads-only', { line: o.line, uuid, detail: `${fmt(p)} did not get smaller (${payloadBytes(before)} → ${payloadBytes(after)} bytes)` });
    }
  }
  if (mirror) {
    if (!result) fail('payloads-only', { line: o.line, uuid, detail: 'the toolUseResult mirror changed but its tool_result did not' });
    const ob = JSON.stringify(orec['toolUseResult'] ?? null).length;
    const fb = JSON.stringify(frec['toolUseResult'] ?? null).length;
    if (fb > ob) fail('payloads-only', { line: o.line, uuid, detail: `the toolUseResult mirror grew (${ob} → ${fb} chars)` });
  }
  // Re-serialisation: the original, with the fork's values put in at the changed paths, must give the
  // fork's line byte for byte — same compact form, same key order everywhere else.
  if (JSON.stringify(orec) !== o.text) {
    fail('payloads-only', { line: o.line, uuid, detail: 'a line that was not in compact JSON form was re-serialised' });
    return;
  }
  const expected = structuredClone(orec);
  for (const p of paths) setAt(expected, p, getAt(frec, p));
  if (oid !== undefined && forkId) {
    expected['sessionId'] = forkId;
    if (orec['session_id'] === oid) expected['session_id'] = forkId;
  }
  if (JSON.stringify(expected) !== f.text) {
    fail('payloads-only', { line: o.line, uuid, detail: 'the changed line is not serialised as Claude Code writes it (compact, same key order)' });
  }
}

