import { isObject, str, type JsonObject } from '../record-types';
import { contentOf } from './touched';

/** What the structural checks need from one line, so that parsed records need not be kept. */
export interface LineFacts {
  invalid: boolean;
  uuid?: string;
  parent?: string;
  sessionId?: string;
  /** A `session_id` that differs from `sessionId` (a fork that renamed one of the two). */
  otherSessionId?: string;
  uses: string[];
  results: string[];
  /** Where the line has empty content, e.g. `message.content[2].content`. */
  empties: string[];
}

/** What most lines have of uses, results and empties: none (shared, never written to). */
const NONE: readonly string[] = Object.freeze([]);

export function factsOf(record: JsonObject | null, text: string): LineFacts {
  if (!record) return { invalid: text.trim() !== '', uses: NONE as string[], results: NONE as string[], empties: NONE as string[] };
  const f: LineFacts = { invalid: false, uses: NONE as string[], results: NONE as string[], empties: NONE as string[] };
  const uuid = str(record['uuid']);
  if (uuid) f.uuid = uuid;
  const parent = str(record['parentUuid']);
  if (parent) f.parent = parent;
  const sid = str(record['sessionId']);
  if (sid) f.sessionId = sid;
  // The interactive client's second copy of the id (2.1.33x): it must name the same session.
  const tui = str(record['session_id']);
  if (tui && tui !== sid) f.otherSessionId = tui;
  const content = contentOf(record);
  const type = record['type'];
  const empty = (where: string): void => void (f.empties === NONE ? (f.empties = [where]) : f.empties.push(where));
  if ((type === 'user' || type === 'assistant') && (content === '' || (Array.isArray(content) && content.length === 0))) empty('message.content');
  if (Array.isArray(content)) {
    content.forEach((b, j) => {
      if (!isObject(b)) return;
      if (b['type'] === 'tool_use' && typeof b['id'] === 'string') {
        if (f.uses === NONE) f.uses = [];
        f.uses.push(b['id']);
      }
      if (b['type'] === 'tool_result') {
        if (f.results === NONE) f.results = [];
        f.results.push(str(b['tool_use_id']) ?? '');
        const c = b['content'];
        if (c === '' || (Array.isArray(c) && c.length === 0)) empty(`message.content[${j}].content`);
      }
      if (b['type'] === 'text' && b['text'] === '') empty(`message.content[${j}].text`);
    });
  }
  return f;
}

/** The structure of one file, accumulated line by line. */
export class Structure {
  readonly invalid = new Set<number>();
  readonly uuids = new Map<string, number>();
  readonly sessionIds = new Set<string>();
  /** Each parentUuid and its line, in two lists (no pair allocated per line). */
  private readonly parentLines: number[] = [];
  private readonly parentIds: string[] = [];
  private readonly uses = new Set<string>();
  private readonly results = new Set<string>();
  readonly empty = new Set<string>();

  /** A line's facts; `sessionId` stands for the facts' own (a fork's line renamed, all else the same). */
  add(line: number, f: LineFacts, sessionId = f.sessionId): void {
    if (f.invalid) this.invalid.add(line);
    if (f.uuid) this.uuids.set(f.uuid, (this.uuids.get(f.uuid) ?? 0) + 1);
    if (f.parent) {
      this.parentLines.push(line);
      this.parentIds.push(f.parent);
    }
    if (sessionId) this.sessionIds.add(sessionId);
    if (f.otherSessionId) this.sessionIds.add(f.otherSessionId);
    for (const u of f.uses) this.uses.add(u);
    for (const r of f.results) this.results.add(r);
    for (const e of f.empties) this.empty.add(`${line}:${e}`);
  }

  /** `<line>:<parent>` for every parentUuid that names no record of the file. */
  dangling(): Set<string> {
    const out = new Set<string>();
    this.parentIds.forEach((p, i) => {
      if (!this.uuids.has(p)) out.add(`${this.parentLines[i] ?? 0}:${p}`);
    });
    return out;
  }

  orphanResults(): Set<string> {
    return new Set([...this.results].filter((id) => !this.uses.has(id)));
  }

  unansweredUses(): Set<string> {
    return new Set([...this.uses].filter((id) => !this.results.has(id)));
  }
}
