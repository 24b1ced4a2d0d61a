import { sha256 } from '../hash';
import { isObject, str, type Json, type JsonObject } from '../record-types';
import { WRITE_TOOL_FIELDS, textOf } from './payloads';
import { contentOf } from './touched';
import { APPENDED_REMINDER } from './copies';


/**
 * "Nothing the fork removes is left anywhere in its file": each payload a touched line lost (a tool
 * result, a write tool's input), by its call id and hash, must not be held by any other record of
 * the fork that repeats that call's blocks (a logged request, copies.ts). Copies are matched by call
 * id, so an identical payload the plan keeps elsewhere (the live copy of a duplicate) is not one.
 */
export class CopyCheck {
  private readonly removed = new Map<string, number>();
  private readonly held = new Map<string, number>();

  /** A changed conversation record: what the fork took out of it. */
  noteRemoved(original: JsonObject, fork: JsonObject, line: number): void {
    const ob = contentOf(original);
    const fb = contentOf(fork);
    if (!Array.isArray(ob) || !Array.isArray(fb)) return;
    ob.forEach((b, i) => {
      const f = fb[i];
      if (!isObject(b) || !isObject(f)) return;
      if (b['type'] === 'tool_result') {
        const id = str(b['tool_use_id']);
        if (id && JSON.stringify(b['content']) !== JSON.stringify(f['content']) && b['content'] !== undefined) {
          const text = textOf(b['content']);
          this.removed.set(key(id, text), line);
          // The text the client sends with reminders appended is trimmed first.
          if (text.trimEnd() !== text) this.removed.set(key(id, text.trimEnd()), line);
        }
      } else if (b['type'] === 'tool_use' && isObject(b['input']) && isObject(f['input'])) {
        const id = str(b['id']);
        const fields = WRITE_TOOL_FIELDS[str(b['name']) ?? ''] ?? [];
        const fi = f['input'];
        for (const field of fields) {
          const v = b['input'][field];
          if (id && typeof v === 'string' && fi[field] !== v) this.removed.set(key(id, v), line);
        }
      }
    });
  }

  /** A fork line that is not a conversation record: the call payloads it holds, if any. */
  noteHeld(record: JsonObject, line: number): void {
    const t = record['type'];
    if (t === 'user' || t === 'assistant') return;
    const content = contentOf(record);
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (!isObject(b)) continue;
      if (b['type'] === 'tool_result') {
        const id = str(b['tool_use_id']);
        const c = b['content'];
        if (!id || c === undefined) continue;
        this.hold(key(id, textOf(c)), line);
        if (typeof c === 'string') {
          for (let at = c.indexOf(APPENDED_REMINDER); at >= 0; at = c.indexOf(APPENDED_REMINDER, at + 1)) this.hold(key(id, c.slice(0, at)), line);
        }
      } else if (b['type'] === 'tool_use' && isObject(b['input'])) {
        const id = str(b['id']);
        if (id) for (const v of strings(b['input'])) this.hold(key(id, v), line);
      }
    }
  }

  failures(): { line: number; detail: string }[] {
    const out: { line: number; detail: string }[] = [];
    for (const [k, from] of this.removed) {
      const at = this.held.get(k);
      if (at !== undefined) out.push({ line: at, detail: `still holds the payload removed from line ${from} (call ${k.split(':')[0] ?? ''})` });
    }
    return out.sort((a, b) => a.line - b.line);
  }

  private hold(k: string, line: number): void {
    if (!this.held.has(k)) this.held.set(k, line);
  }
}

function key(id: string, text: string): string {
  return `${id}:${sha256(text)}`;
}

function strings(v: Json): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (isObject(v)) return Object.values(v).flatMap((x) => strings(x));
  return [];
}
