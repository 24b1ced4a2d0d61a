import type { JsonObject } from '../record-types';
import { isObject } from '../record-types';

/**
 * Claude Code writes each record as `JSON.stringify(record)`: compact, keys in insertion order.
 * A line that round-trips through parse + stringify can be modified and re-serialised without
 * changing a byte outside the modified values; any other line must not be re-serialised.
 */
export function parseCompact(line: string): { record: JsonObject; compact: boolean } | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  return { record: value, compact: JSON.stringify(value) === line };
}

const SESSION_ID_TEXT = /("sessionId"\s*:\s*")((?:[^"\\]|\\.)*)(")/g;

/**
 * Rewrites the top-level `sessionId` of a record line, changing no other byte. Compact lines are
 * re-serialised (the key keeps its place); other lines are edited as text, and the edit is checked
 * by parsing it back. Returns null when the line cannot be rewritten safely.
 */
export function rewriteSessionId(line: string, parsed: { record: JsonObject; compact: boolean }, newId: string): string | null {
  const old = parsed.record['sessionId'];
  if (typeof old !== 'string' || old === newId) return line;
  if (parsed.compact) {
    parsed.record['sessionId'] = newId;
    const out = JSON.stringify(parsed.record);
    parsed.record['sessionId'] = old;
    return out;
  }
  const out = line.replace(SESSION_ID_TEXT, (whole, a: string, value: string, c: string) =>
    value === old ? `${a}${newId}${c}` : whole,
  );
  try {
    const back: unknown = JSON.parse(out);
    if (!isObject(back) || back['sessionId'] !== newId) return null;
    const expect = JSON.stringify({ ...parsed.record, sessionId: newId });
    return JSON.stringify(back) === expect ? out : null;
  } catch {
    return null;
  }
}

/** The inverse used by the validator: the fork line with its new session id put back to `oldId`. */
export function restoreSessionIdText(forkLine: string, newId: string, oldId: string): string {
  return forkLine.replace(SESSION_ID_TEXT, (whole, a: string, value: string, c: string) =>
    value === newId ? `${a}${oldId}${c}` : whole,
  );
}
