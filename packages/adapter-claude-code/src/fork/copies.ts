import { isObject, str, type Json, type JsonObject } from '../record-types';
import type { AppliedAction } from './types';

/**
 * Records that repeat a payload a fork removes (2.1.33x `api-request-blob`: a message the client sent
 * whole, tool results and tool inputs included) get the same tombstone, or the fork's file would
 * still hold what it reports as gone. The client never reads these records back into a conversation
 * (its loader skips them; docs/claude-code/what-the-client-sends.md), so the tombstone changes no
 * request.
 */
export const COPY_RECORD = 'api-request-blob';
const COPY_PREFIX = `{"type":"${COPY_RECORD}"`;
/** Where the client appends reminders to a result's text. */
export const APPENDED_REMINDER = '\n\n<system-reminder>\n';

/** Whether a line is a record that may copy payloads (cheap: the client writes the type first). */
export function isCopyLine(text: string): boolean {
  return text.startsWith(COPY_PREFIX);
}

/** Tool call ids a copy line repeats (its tool results' and tool uses' ids). */
export function idsInCopy(record: JsonObject): string[] {
  const message = record['message'];
  const content = isObject(message) ? message['content'] : undefined;
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const b of content) {
    if (!isObject(b)) continue;
    const id = b['type'] === 'tool_result' ? str(b['tool_use_id']) : b['type'] === 'tool_use' ? str(b['id']) : undefined;
    if (id) out.push(id);
  }
  return out;
}

/**
 * Puts each applied action's tombstone in place of its payload where a copy record repeats it: a tool
 * result's content (the same text, or the text with the reminders the client appended after it), a
 * write tool's input field. Mutates `record`; returns how many payloads it replaced.
 */
export function tombstoneCopies(record: JsonObject, applied: readonly AppliedAction[]): number {
  const message = record['message'];
  const content = isObject(message) ? message['content'] : undefined;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const a of applied) {
    const id = a.action.toolUseId;
    if (!id) continue;
    const sent = a.removed.filter((r) => r.sentToModel);
    for (const b of content) {
      if (!isObject(b)) continue;
      if (a.action.target === 'tool-result' && b['type'] === 'tool_result' && b['tool_use_id'] === id) {
        const replaced = replacePayload(b['content'], sent.map((r) => r.text), a.action.tombstone);
        if (replaced !== null) {
          b['content'] = replaced;
          n++;
        }
      } else if (a.action.target === 'tool-input' && b['type'] === 'tool_use' && b['id'] === id && isObject(b['input'])) {
        n += replaceFields(b['input'], sent.map((r) => r.text), a.action.tombstone);
      }
    }
  }
  return n;
}

/** The copy of a result with the removed text replaced, or null when it does not hold it. */
function replacePayload(value: Json | undefined, removed: readonly string[], tombstone: string): Json | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const r of removed) {
    if (text === r) return tombstone;
    // On the older models the client appends reminders to a result's text, trimmed first
    // (`<text>\n\n<system-reminder>…`): the payload is what comes before them.
    const head = r.trimEnd();
    if (typeof value === 'string' && head.length > 0 && value.startsWith(head) && value.startsWith(APPENDED_REMINDER, head.length)) return tombstone + value.slice(head.length);
  }
  return null;
}

function replaceFields(input: JsonObject, removed: readonly string[], tombstone: string): number {
  let n = 0;
  const walk = (obj: JsonObject): void => {
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === 'string' && removed.includes(v)) {
        obj[k] = tombstone;
        n++;
      } else if (Array.isArray(v)) {
        for (const x of v) if (isObject(x)) walk(x);
      } else if (isObject(v)) walk(v);
    }
  };
  walk(input);
  return n;
}
