import { isObject, parseObject, type CheckResult, type ForkValidator, type JsonObject, type ValidateOptions, type ValidationReport, type ValidationSide } from '@glassbox/core';
import { parseChatLines } from '../parse-lines';
import type { GeminiSession } from '../parser';
import { layoutOf } from './builder';
import { allOutputCopies, renameSession } from './rewrite';
import { renameOutputPaths } from './output-paths';

const MAX_LISTED = 5;

type CheckId = 'parses' | 'session-id' | 'history' | 'calls' | 'every-copy' | 'untouched';

const TITLES: Record<CheckId, string> = {
  parses: 'the fork reads as a Gemini CLI chat',
  'session-id': 'the fork is a session of its own (a new id in every record that names one)',
  history: 'the same messages, in the same order, as the client would load them',
  calls: 'every call still has its response',
  'every-copy': 'a shortened output is shortened in every copy (the client sends more than one)',
  untouched: 'no line changed but the outputs removed and the session id (in saved outputs’ paths too)',
};

/**
 * Differential validation of a Gemini CLI fork (either layout), fed line pairs: both sides' lines
 * are kept (a document is one value, read whole), and at the end both are read as the client would
 * load them. Stricter than the client: a line may differ only in removed outputs and the session id,
 * and every copy of an output that was shortened must be shortened.
 */
export class GeminiForkValidator implements ForkValidator {
  private readonly original: string[] = [];
  private readonly fork: string[] = [];

  constructor(private readonly options: ValidateOptions = {}) {}

  pair(original: string | undefined, fork: string | undefined, line: number): void {
    if (original !== undefined) this.original[line - 1] = original;
    if (fork !== undefined) this.fork[line - 1] = fork;
  }

  finish(): ValidationReport {
    const checks = new Map<CheckId, CheckResult>();
    for (const id of Object.keys(TITLES) as CheckId[]) checks.set(id, { id, title: TITLES[id], ok: true, failures: [], more: 0 });
    const fail = (id: CheckId, detail: string, line?: number) => {
      const c = checks.get(id) as CheckResult;
      c.ok = false;
      if (c.failures.length < MAX_LISTED) c.failures.push({ line, detail });
      else c.more++;
    };
    // Both sides are read from the lines given (the plan's parse of the original is not reused: a
    // document's session is cheap to rebuild and the comparison then reads both the same way).
    const o = parseChatLines(this.original, { path: 'original' });
    const f = parseChatLines(this.fork, { path: 'fork' });
    for (const p of f.problems) if (p.severity === 'error') fail('parses', p.message.replace(/^fork:/, 'line'), p.line);
    if (f.id === '' || f.id === o.id) fail('session-id', f.id === '' ? 'the fork names no session id' : `the fork has the original's session id ${o.id}`);
    // Saved outputs' paths name the fork's own copies: read back as the original's before comparing.
    const fork = o.id && f.id ? this.fork.map((l) => renameOutputPaths(l, f.id, o.id)) : this.fork;
    const touched = this.compareLines(o.id, f.id, fork, fail);
    this.compareHistory(o, f, fail);
    this.compareCopies(fork, fail);
    if (this.options.touchedLines) {
      const given = [...this.options.touchedLines].sort((a, b) => a - b).join(',');
      if (given !== touched.join(',')) fail('untouched', `the writer reports lines ${given || 'none'} as changed; the fork changes ${touched.join(',') || 'none'}`);
    }
    const list = [...checks.values()];
    return { ok: list.every((c) => c.ok), checks: list, original: sideOf(o, this.original.length), fork: sideOf(f, this.fork.length), touchedLines: touched };
  }

  /** Lines that differ: each must differ only in output strings or the session id. Returns those with outputs changed. */
  private compareLines(oldId: string, newId: string, forkLines: readonly string[], fail: (id: CheckId, detail: string, line?: number) => void): number[] {
    const touched: number[] = [];
    if (this.original.length !== forkLines.length) fail('untouched', `the fork has ${forkLines.length} lines against the original's ${this.original.length}`);
    const document = layoutOf(this.original.find((l) => l.trim() !== '')) === 'document';
    for (let i = 0; i < Math.min(this.original.length, forkLines.length); i++) {
      const a = this.original[i] as string;
      const b = forkLines[i] as string;
      if (a === b) continue;
      const line = i + 1;
      if (document) {
        // A document's line is a piece of one value: only an output's line or the session id's may change.
        if (/^ {2}"sessionId": /.test(a) && b === a.replace(JSON.stringify(oldId), JSON.stringify(newId))) continue;
        if (/^\s*"(output|result)": "/.test(a) && /^\s*"(output|result)": "/.test(b)) touched.push(line);
        else fail('untouched', `a line that holds no output changed`, line);
        continue;
      }
      const ra = parseObject(a);
      const rb = parseObject(b);
      if (!ra || !rb) {
        fail('untouched', 'a changed line is not a JSON record', line);
        continue;
      }
      const renamed = structuredClone(ra);
      if (renameSession(renamed, newId) !== null && JSON.stringify(renamed) === JSON.stringify(rb)) continue;
      if (sameButOutputs(ra, rb, newId)) touched.push(line);
      else fail('untouched', 'a record changed beyond its outputs and session id', line);
    }
    return touched;
  }

  private compareHistory(o: GeminiSession, f: GeminiSession, fail: (id: CheckId, detail: string, line?: number) => void): void {
    const shape = (s: GeminiSession) => s.order.map((u) => `${u}:${s.nodes.get(u)?.kind ?? '?'}`);
    const a = shape(o);
    const b = shape(f);
    if (a.join('\n') !== b.join('\n')) {
      const at = a.findIndex((x, i) => x !== b[i]);
      fail('history', `the loaded history differs at message ${at + 1} (${a[at] ?? 'none'} against ${b[at] ?? 'none'}); ${a.length} messages against ${b.length}`, f.nodes.get(f.order[at] ?? '')?.line);
    }
    for (const [id, call] of o.toolCalls) {
      if (call.resultUuid === undefined) continue;
      const fc = f.toolCalls.get(id);
      if (!fc || fc.resultUuid === undefined) fail('calls', `the call ${call.name} (${id}) lost its response`, fc?.useLine ?? call.useLine);
    }
  }

  /** For each call: its outputs in the fork are all the original's, or all replaced (by one tombstone). */
  private compareCopies(forkLines: readonly string[], fail: (id: CheckId, detail: string, line?: number) => void): void {
    const ids = new Set<string>();
    const idPattern = /"functionResponse":\{"id":"([^"]+)"|"id": ?"([^"]+)"/g;
    for (const l of forkLines) for (const m of l.matchAll(idPattern)) ids.add((m[1] ?? m[2]) as string);
    const originalValue = valueOf(this.original);
    const forkValue = valueOf(forkLines);
    if (!originalValue || !forkValue) return;
    for (const id of ids) {
      const before = originalValue.flatMap((r) => allOutputCopies(r, id));
      const after = forkValue.flatMap((r) => allOutputCopies(r, id));
      if (before.length !== after.length) {
        fail('every-copy', `call ${id}: ${before.length} copies of its output in the original, ${after.length} in the fork`);
        continue;
      }
      // Copies are grouped by the message and kind they belong to (every version of a message, in any
      // record): within a group, all or none changed — else the version the client loads may keep the output.
      const groups = new Map<string, { changed: number; total: number }>();
      after.forEach((c, i) => {
        const g = c.group;
        const e = groups.get(g) ?? { changed: 0, total: 0 };
        e.total++;
        if (c.text !== before[i]?.text) e.changed++;
        groups.set(g, e);
      });
      for (const [g, e] of groups) if (e.changed > 0 && e.changed < e.total) fail('every-copy', `call ${id}: ${e.changed} of ${e.total} versions of its output in message ${g} shortened; the others would still be sent`);
    }
  }
}

/** A chat's records (a log) or its one document, parsed; null when some record does not parse. */
function valueOf(lines: readonly string[]): JsonObject[] | null {
  if (layoutOf(lines.find((l) => l.trim() !== '')) === 'document') {
    const doc = parseObject(lines.join('\n'));
    return doc ? [doc] : null;
  }
  const out: JsonObject[] = [];
  for (const l of lines) {
    if (l.trim() === '') continue;
    const r = parseObject(l);
    if (r) out.push(r);
  }
  return out;
}

/** Two records equal once every output string is blanked and the session renamed. */
function sameButOutputs(a: JsonObject, b: JsonObject, newId: string): boolean {
  const blank = (r: JsonObject) => {
    const c = structuredClone(r);
    renameSession(c, newId);
    blankOutputs(c);
    return JSON.stringify(c);
  };
  return blank(a) === blank(b);
}

function blankOutputs(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) blankOutputs(x);
    return;
  }
  if (!isObject(v)) return;
  const fr = v['functionResponse'];
  if (isObject(fr) && isObject(fr['response']) && typeof fr['response']['output'] === 'string') fr['response']['output'] = '';
  if (typeof v['result'] === 'string' && typeof v['name'] === 'string') v['result'] = '';
  for (const x of Object.values(v)) if (x !== null && typeof x === 'object') blankOutputs(x);
}

function sideOf(s: GeminiSession, lines: number): ValidationSide {
  const estimatedTokens = s.order.reduce((n, u) => n + (s.nodes.get(u)?.blocks.reduce((m, b) => m + (b.notSent ? 0 : b.tokens), 0) ?? 0), 0);
  return { sessionId: s.id || null, lines, live: s.order.length, estimatedTokens, leafUuid: s.leafUuid };
}
