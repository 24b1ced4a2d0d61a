import type { JsonObject } from '../record-types';
import { isObject } from '../record-types';

/**
 * Claude Code writes each record as `JSON.stringify(record)`: compact, keys in insertion order.
 * A line that round-trips through parse + stringify can be modified and re-serialised without
 * changing a byte outside the modified values; any other line must not be re-serialised.
 */
export interface ParsedLine {
  record: JsonObject;
  /** Whether the line is exactly `JSON.stringify(record)`; null until someone needs to know. */
  compact: boolean | null;
}

export function parseRecord(line: string): ParsedLine | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  return isObject(value) ? { record: value, compact: null } : null;
}

let sharedText: string | null = null;
let sharedParse: ParsedLine | null = null;

/**
 * The record of a line, parsed once for every reader of one pass: the fork builder's transform and
 * the validator read the same original line in turn, so the second read costs nothing. Readers must
 * not change the record (the builder changes only its own parses, made in `prepare`).
 */
export function parseShared(line: string): ParsedLine | null {
  if (line !== sharedText) {
    sharedText = line;
    sharedParse = parseRecord(line);
  }
  return sharedParse;
}

/** core's keyValues over a line's UTF-8 bytes, without decoding the line (the values are ASCII ids). */
export function keyValuesInBytes(line: Buffer, key: string): string[] {
  const out: string[] = [];
  let at = line.indexOf(key, 0, 'latin1');
  while (at >= 0) {
    const start = at + key.length;
    const end = line.indexOf(QUOTE, start);
    if (end < 0) break;
    out.push(line.toString('latin1', start, end));
    at = line.indexOf(key, end + 1, 'latin1');
  }
  return out;
}

const QUOTE = 0x22;

/** Checks (once, before any change to the record) that the line is in compact form. */
export function isCompact(p: ParsedLine, line: string): boolean {
  p.compact ??= JSON.stringify(p.record) === line;
  return p.compact;
}

const SESSION_ID_TEXT = /("(?:sessionId|session_id)"\s*:\s*")((?:[^"\\]|\\.)*)(")/g;

/**
 * The interactive client (2.1.33x) writes the session id twice on every record: `sessionId` and
 * `session_id`. A fork renames both; the byte-level quick paths handle only lines with one key.
 */
const TUI_KEY = '"session_id":"';

/**
 * Rewrites the top-level `sessionId` of a record line, changing no other byte (the slow path, for
 * lines `renameSessionIdText` cannot do: a nested `sessionId` beside the record's own). Compact lines are
 * re-serialised (the key keeps its place); other lines are edited as text, and the edit is checked
 * by parsing it back. Returns null when the line cannot be rewritten safely.
 */
export function rewriteSessionId(line: string, parsed: ParsedLine, newId: string): string | null {
  const old = parsed.record['sessionId'];
  if (typeof old !== 'string' || old === newId) return line;
  const tui = parsed.record['session_id'] === old;
  if (isCompact(parsed, line)) {
    parsed.record['sessionId'] = newId;
    if (tui) parsed.record['session_id'] = newId;
    const out = JSON.stringify(parsed.record);
    parsed.record['sessionId'] = old;
    if (tui) parsed.record['session_id'] = old;
    return out;
  }
  const out = line.replace(SESSION_ID_TEXT, (whole, a: string, value: string, c: string) =>
    value === old ? `${a}${newId}${c}` : whole,
  );
  try {
    const back: unknown = JSON.parse(out);
    if (!isObject(back) || back['sessionId'] !== newId) return null;
    const expect = JSON.stringify({ ...parsed.record, sessionId: newId, ...(tui ? { session_id: newId } : {}) });
    return JSON.stringify(back) === expect ? out : null;
  } catch {
    return null;
  }
}

/**
 * Renames the session of a record known to carry a top-level `sessionId`, as text: when the line
 * holds exactly one `"sessionId":"…"` key it is that one (in valid JSON an unescaped `"sessionId":"`
 * can only be a key), so replacing its value changes no other byte. Null when that does not hold.
 */
export function renameSessionIdText(line: string, newId: string): string | null {
  const key = '"sessionId":"';
  const at = line.indexOf(key);
  if (at < 0 || line.indexOf(key, at + 1) >= 0) return null;
  const start = at + key.length;
  const end = line.indexOf('"', start);
  if (end < 0 || line.lastIndexOf('\\', end) >= start) return null;
  const renamed = line.slice(0, start) + newId + line.slice(end);
  if (!line.includes(TUI_KEY)) return renamed;
  // The second key, when it holds the same id.
  const oldKey = `${TUI_KEY}${line.slice(start, end)}"`;
  const tuiAt = renamed.indexOf(oldKey);
  if (tuiAt < 0 || renamed.indexOf(oldKey, tuiAt + 1) >= 0) return null;
  return renamed.slice(0, tuiAt) + `${TUI_KEY}${newId}"` + renamed.slice(tuiAt + oldKey.length);
}

const SESSION_ID_KEY = Buffer.from('"sessionId":"', 'latin1');
const BACKSLASH = 0x5c;

/**
 * renameSessionIdText on a line's UTF-8 bytes: the range of the one `"sessionId":"…"` value, to be
 * replaced by `newId`'s bytes, so the line is neither decoded nor re-encoded. Null when the line has
 * no such key, more than one, or an escape in the value (the text paths decide those).
 */
export function sessionIdSplice(line: Uint8Array, newId: Uint8Array): { start: number; end: number; insert: Uint8Array } | null {
  const buf = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  const at = buf.indexOf(SESSION_ID_KEY);
  if (at < 0 || buf.indexOf(SESSION_ID_KEY, at + 1) >= 0 || buf.indexOf(TUI_KEY, 0, 'latin1') >= 0) return null;
  const start = at + SESSION_ID_KEY.length;
  const end = buf.indexOf(QUOTE, start);
  if (end < 0) return null;
  if (buf.subarray(start, end).indexOf(BACKSLASH) >= 0) return null;
  return { start, end, insert: newId };
}

/**
 * Whether a fork line is its original line with the record's session id renamed from `oldId` to
 * `newId` and nothing else: what `restoreSessionIdText` decides, quickly for the compact form Claude
 * Code writes (one `"sessionId":"…"` key; the rest compared as it is), by the general rule otherwise.
 * (The new id is a fresh one: no original line names it, so one key renamed is the whole difference.)
 */
export function onlySessionIdRenamed(original: string, fork: string, oldId: string, newId: string): boolean {
  if (original.includes(TUI_KEY)) {
    // Both keys renamed (the second one wherever it held the old id), nothing else.
    if (fork.includes(`${TUI_KEY}${oldId}"`)) return false;
    const restored = restoreSessionIdText(fork, newId, oldId);
    return restored.count >= 1 && restored.text === original;
  }
  if (fork.length - original.length === newId.length - oldId.length) {
    const oldKey = `"sessionId":"${oldId}"`;
    const at = original.indexOf(oldKey);
    const newKey = `"sessionId":"${newId}"`;
    // The first key renamed and every other byte the same: then the restore below would agree (the new
    // id names no other key of the line). Anything else takes the general rule.
    if (at >= 0 && fork.startsWith(newKey, at) && fork.slice(at + newKey.length) === original.slice(at + oldKey.length) && fork.slice(0, at) === original.slice(0, at)) {
      return true;
    }
  }
  const restored = restoreSessionIdText(fork, newId, oldId);
  return restored.count === 1 && restored.text === original;
}

/**
 * onlySessionIdRenamed's quick rule on the lines' UTF-8 bytes (native compares, nothing decoded): the
 * first `"sessionId":"<oldId>"` renamed to `newId` and every other byte the same. False says only that
 * this rule does not decide; the text rule may still.
 */
export function sessionIdRenamedInBytes(original: Buffer, fork: Buffer, oldId: string, newId: string): boolean {
  const oldKey = sessionIdKey(oldId);
  const newKey = sessionIdKey(newId);
  if (fork.length - original.length !== newKey.length - oldKey.length || original.indexOf(TUI_KEY, 0, 'latin1') >= 0) return false;
  const at = original.indexOf(oldKey);
  if (at < 0) return false;
  return (
    fork.compare(newKey, 0, newKey.length, at, at + newKey.length) === 0 &&
    fork.compare(original, 0, at, 0, at) === 0 &&
    fork.compare(original, at + oldKey.length, original.length, at + newKey.length, fork.length) === 0
  );
}

/** `"sessionId":"<id>"` as bytes, for the last few ids asked (a pass meets one or two). */
const keys = new Map<string, Buffer>();
function sessionIdKey(id: string): Buffer {
  let key = keys.get(id);
  if (!key) {
    if (keys.size >= 8) keys.clear();
    key = Buffer.from(`"sessionId":"${id}"`, 'utf8');
    keys.set(id, key);
  }
  return key;
}

/**
 * The inverse used by the validator: the fork line with its new session id put back to `oldId`, and
 * how many `sessionId` keys were put back (a fork renames exactly one per record).
 */
function restoreSessionIdText(forkLine: string, newId: string, oldId: string): { text: string; count: number } {
  let count = 0;
  const text = forkLine.replace(SESSION_ID_TEXT, (whole, a: string, value: string, c: string) => {
    if (value !== newId) return whole;
    count++;
    return `${a}${oldId}${c}`;
  });
  return { text, count };
}
