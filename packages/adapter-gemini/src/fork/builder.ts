import { parseObject, type AppliedAction, type ForkAction, type ForkBuilder, type ForkOutcome, type ForkPrepared, type JsonObject, type RefusedAction, type TombstoneFill } from '@glassbox/core';
import { byteLength } from '../hash';
import { messagesIn, outputCopies, removedOf, renameSession, targetsOf, type OutputCopy } from './rewrite';
import { renameOutputPaths } from './output-paths';

/** How a chat file is laid out: a JSONL log (0.39+) or one pretty-printed JSON document (up to 0.38). */
export type ChatLayout = 'log' | 'document';

/** The layout of a chat from its first non-empty line: a document starts with a line `{`. */
export function layoutOf(firstLine: string | undefined): ChatLayout {
  return firstLine?.trim() === '{' ? 'document' : 'log';
}

/**
 * A Gemini CLI fork, built through the line seam for both layouts.
 *
 * A log is forked record by record: a record holding a copy of a removed output is parsed, changed
 * and written back as the client writes records (`JSON.stringify`, no spaces); the session record and
 * every `$set.sessionId` are renamed; every other line is kept byte for byte.
 *
 * A document is forked as a whole: its lines are kept in the index pass, parsed as one JSON value at
 * `prepare`, changed, and written back as the client writes it (`JSON.stringify(doc, null, 2)`). A
 * string is one line of that layout, so the fork has the original's line count and its lines pair up
 * with the original's — but only when the original is laid out exactly that way, which `prepare`
 * checks first (a document edited by hand or by another tool is refused, never re-laid out).
 *
 * Either way, an action names a call (`toolUseId`) and the window node that shows its output: the
 * turn the client rebuilds from a reply's recorded `toolCalls` results (`<id>_response`), or a
 * function-response message (0.39+). 0.61 sends both, so each is judged (and removed) on its own; a
 * message is written again in later records (the reply streamed then completed, each `$set.messages`
 * list), and every version of it is changed, or the version the client loads would keep the output.
 */
export class GeminiForkBuilder implements ForkBuilder {
  private readonly lines: string[] = [];
  private layout: ChatLayout | null = null;
  private out: Map<number, string> = new Map();
  private documentLines: string[] | null = null;
  private readonly originalIds = new Set<string>();
  private prepared: ForkPrepared | null = null;

  constructor(
    private readonly actions: readonly ForkAction[],
    private readonly newSessionId: string,
  ) {}

  index(text: string, line: number): void {
    if (this.layout === null && text.trim() !== '') this.layout = layoutOf(text);
    this.lines[line - 1] = text;
  }

  prepare(fill?: TombstoneFill): ForkPrepared {
    this.prepared = this.layout === 'document' ? this.prepareDocument(fill) : this.prepareLog(fill);
    return this.prepared;
  }

  transform(text: string, line: number): string {
    if (this.documentLines) return this.documentLines[line - 1] ?? text;
    return this.out.get(line) ?? text;
  }

  finish(): ForkOutcome {
    const p = this.prepared ?? { applied: [], refused: [], touchedLines: [] };
    return { ...p, newSessionId: this.newSessionId, originalSessionIds: [...this.originalIds] };
  }

  private prepareLog(fill: TombstoneFill | undefined): ForkPrepared {
    const records = new Map<number, JsonObject>();
    const changed = new Set<number>();
    const renamed = new Set<number>();
    const copiesOf = (action: ForkAction, callId: string): { line: number; copy: OutputCopy }[] => {
      for (const target of targetsOf(action.uuid)) {
        const found = copiesIn(target, callId);
        if (found.length > 0) return found;
      }
      return [];
    };
    const copiesIn = (target: { messageId: string; kind: 'calls' | 'content' }, callId: string): { line: number; copy: OutputCopy }[] => {
      const found: { line: number; copy: OutputCopy }[] = [];
      this.lines.forEach((text, i) => {
        // Only a record that names the call and the message can hold the copy: most lines are passed over unparsed.
        if (text === undefined || !text.includes(callId) || !text.includes(target.messageId)) return;
        const line = i + 1;
        let r = records.get(line);
        if (!r) {
          const parsed = parseObject(text);
          if (!parsed) return;
          r = parsed;
          records.set(line, r);
        }
        for (const m of messagesIn(r, target.messageId)) for (const copy of outputCopies(m.message, callId, target.kind, m.path)) found.push({ line, copy });
      });
      return found;
    };
    const result = this.applyActions(fill, copiesOf, (line) => changed.add(line));
    this.lines.forEach((text, i) => {
      if (text === undefined || !text.includes('"sessionId"')) return;
      const line = i + 1;
      const r = records.get(line) ?? parseObject(text);
      if (!r) return;
      const old = renameSession(r, this.newSessionId);
      if (old === null) return;
      this.originalIds.add(old);
      records.set(line, r);
      renamed.add(line);
    });
    for (const line of new Set([...changed, ...renamed])) this.out.set(line, JSON.stringify(records.get(line)));
    // The paths of saved outputs name the fork's copies (output-paths.ts): the same bytes otherwise.
    const oldId = [...this.originalIds][0] ?? '';
    this.lines.forEach((text, i) => {
      if (text === undefined) return;
      const line = i + 1;
      const before = this.out.get(line) ?? text;
      const after = renameOutputPaths(before, oldId, this.newSessionId);
      if (after !== before) this.out.set(line, after);
    });
    return { ...result, touchedLines: [...changed].sort((a, b) => a - b) };
  }

  private prepareDocument(fill: TombstoneFill | undefined): ForkPrepared {
    const text = this.lines.join('\n');
    let doc: JsonObject | null;
    try {
      doc = parseObject(text);
    } catch {
      doc = null;
    }
    if (!doc || JSON.stringify(doc, null, 2) !== text) {
      const why = !doc ? 'the chat document does not parse (it may be half-written by a running Gemini CLI)' : 'the chat document is not laid out as Gemini CLI writes it (JSON, two-space indent), so it cannot be rewritten without changing lines the fork does not touch';
      return { applied: [], refused: this.actions.map((action) => ({ action, code: 'document_layout', message: why })), touchedLines: [] };
    }
    const root = doc;
    const result = this.applyActions(
      fill,
      (action, callId) => {
        for (const target of targetsOf(action.uuid)) {
          const found = messagesIn(root, target.messageId).flatMap((m) => outputCopies(m.message, callId, target.kind, m.path).map((copy) => ({ line: 0, copy })));
          if (found.length > 0) return found;
        }
        return [];
      },
      () => {},
    );
    const old = renameSession(root, this.newSessionId);
    if (old !== null) this.originalIds.add(old);
    const forkLines = JSON.stringify(root, null, 2)
      .split('\n')
      .map((l) => (old === null ? l : renameOutputPaths(l, old, this.newSessionId)));
    if (forkLines.length !== this.lines.length) {
      return { applied: [], refused: this.actions.map((action) => ({ action, code: 'document_layout', message: `the rewritten document has ${forkLines.length} lines against the original's ${this.lines.length}` })), touchedLines: [] };
    }
    this.documentLines = forkLines;
    const touched: number[] = [];
    const renamedLine = this.lines.findIndex((l) => /^ {2}"sessionId": /.test(l)) + 1;
    forkLines.forEach((l, i) => {
      const was = this.lines[i] ?? '';
      // A line whose only change is a saved output's path is not one the fork's actions touched.
      if (l !== was && i + 1 !== renamedLine && (old === null || renameOutputPaths(was, old, this.newSessionId) !== l)) touched.push(i + 1);
    });
    // Each applied action's line: the first that now holds its tombstone (a string is one line of the layout).
    const lineOf = (a: AppliedAction) => {
      const needle = JSON.stringify(a.action.tombstone);
      const i = forkLines.findIndex((l, j) => l !== this.lines[j] && l.includes(needle));
      return i >= 0 ? i + 1 : a.line;
    };
    return { ...result, applied: result.applied.map((a) => ({ ...a, line: a.removed.length > 0 ? lineOf(a) : a.line })), touchedLines: touched };
  }

  /**
   * Applies each action to every copy of what its node shows: the call's output in that message (or
   * in the reply's recorded results), in every record that holds a version of the message.
   */
  private applyActions(fill: TombstoneFill | undefined, copiesOf: (action: ForkAction, callId: string) => { line: number; copy: OutputCopy }[], touch: (line: number) => void): Omit<ForkPrepared, 'touchedLines'> {
    const applied: AppliedAction[] = [];
    const refused: RefusedAction[] = [];
    const done = new Set<string>();
    for (const planned of this.actions) {
      const refuse = (code: string, message: string) => refused.push({ action: planned, code, message, ...(planned.line !== undefined ? { line: planned.line } : {}) });
      const callId = planned.toolUseId;
      if (planned.target !== 'tool-result') {
        refuse('unsupported_target', 'Gemini CLI forks replace call outputs only, not call arguments');
        continue;
      }
      if (!callId) {
        refuse('no_call_id', 'the action names no call: a Gemini CLI output is found by its call id');
        continue;
      }
      const key = `${planned.uuid.replace(/\++$/, '')}/${callId}`;
      if (done.has(key)) {
        refuse('duplicate_action', `call ${callId}'s output in ${planned.uuid} is already replaced by an earlier action`);
        continue;
      }
      const copies = copiesOf(planned, callId);
      if (copies.length === 0) {
        refuse('not_found', `no output of call ${callId} in ${planned.uuid} (an error response is never removed)`);
        continue;
      }
      const first = copies[0] as { line: number; copy: OutputCopy };
      const make = fill?.(planned);
      const tombstone = make ? make(removedOf(first.copy)) : planned.tombstone;
      const sent = copies.filter((c) => c.copy.sentToModel);
      const before = sent.reduce((n, c) => n + byteLength(c.copy.text), 0);
      const after = sent.length * byteLength(tombstone);
      if (after >= before) {
        refuse('not_smaller', `the tombstone (${byteLength(tombstone)} B) is not smaller than the output of call ${callId} (${byteLength(first.copy.text)} B)`);
        continue;
      }
      const removed = copies.map((c) => ({ ...removedOf(c.copy), path: c.line > 0 ? `line ${c.line}: ${removedOf(c.copy).path}` : removedOf(c.copy).path }));
      for (const c of copies) {
        c.copy.replace(tombstone);
        if (c.line > 0) touch(c.line);
      }
      done.add(key);
      applied.push({ action: { ...planned, tombstone }, line: first.line > 0 ? first.line : (planned.line ?? 0), toolName: '', removed, bytesBefore: before, bytesAfter: after });
    }
    return { applied, refused };
  }
}
