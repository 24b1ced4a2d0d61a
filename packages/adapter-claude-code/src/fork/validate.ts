import { isObject, str, type Json, type JsonObject } from '../record-types';
import { liveChain, parseLines, type LiveChain } from './chain';
import { restoreSessionIdText } from './json-line';
import { WRITE_TOOL_FIELDS, payloadBytes } from './payloads';
import type { ForkAction } from './types';

export type CheckId =
  | 'json'
  | 'lines'
  | 'session-id'
  | 'untouched'
  | 'payloads-only'
  | 'thinking'
  | 'orphans'
  | 'parents'
  | 'uuids'
  | 'empty-content'
  | 'leaf'
  | 'chain'
  | 'tokens'
  | 'planned';

export interface CheckFailure {
  /** 1-based line in the fork (equal to the original's: a fork keeps every line in place). */
  line?: number | undefined;
  uuid?: string | undefined;
  detail: string;
}

export interface CheckResult {
  id: CheckId;
  title: string;
  ok: boolean;
  failures: CheckFailure[];
  /** Failures beyond the ones listed. */
  more: number;
}

export interface ValidationReport {
  ok: boolean;
  checks: CheckResult[];
  original: { sessionId: string | null; lines: number; live: number; estimatedTokens: number; leafUuid: string | null };
  fork: { sessionId: string | null; lines: number; live: number; estimatedTokens: number; leafUuid: string | null };
  /** Lines whose payloads differ from the original's. */
  touchedLines: number[];
}

export interface ValidateOptions {
  /** When given, the lines that changed must be exactly the lines of these actions. */
  actions?: readonly (ForkAction & { line?: number })[];
  /** Lines the fork writer reports as touched (with `actions`, the check compares them). */
  touchedLines?: readonly number[];
}

const TITLES: Record<CheckId, string> = {
  json: 'every line is valid JSON (none newly broken)',
  lines: 'the fork keeps every line, in order',
  'session-id': 'one new sessionId on every record that carries one',
  untouched: 'lines not in the plan are byte-identical (but for the sessionId)',
  'payloads-only': 'changed lines differ only in heavy payloads, made smaller, re-serialised as Claude Code writes them',
  thinking: 'thinking blocks are identical',
  orphans: 'no new orphaned tool_use or tool_result',
  parents: 'no new dangling parentUuid',
  uuids: 'no duplicate uuid',
  'empty-content': 'no empty content',
  leaf: 'the resumed leaf (last-prompt) still resolves',
  chain: 'the fork re-parses to the same live chain',
  tokens: 'the live chain costs fewer estimated tokens',
  planned: 'exactly the planned lines changed',
};
const MAX_LISTED = 20;

class Check {
  readonly failures: CheckFailure[] = [];
  more = 0;
  constructor(readonly id: CheckId) {}
  fail(f: CheckFailure): void {
    if (this.failures.length < MAX_LISTED) this.failures.push(f);
    else this.more++;
  }
  result(): CheckResult {
    return { id: this.id, title: TITLES[this.id], ok: this.failures.length === 0 && this.more === 0, failures: this.failures, more: this.more };
  }
}

interface Rec {
  line: number;
  text: string;
  record: JsonObject | null;
}

function records(lines: readonly string[]): Rec[] {
  return lines.map((text, i) => {
    if (text.trim() === '') return { line: i + 1, text, record: null };
    try {
      const v: unknown = JSON.parse(text);
      return { line: i + 1, text, record: isObject(v) ? v : null };
    } catch {
      return { line: i + 1, text, record: null };
    }
  });
}

/**
 * Differential validation of a fork against its original: it reports what the fork introduced,
 * not what the original already had. The real client never refuses a damaged file (it skips bad
 * lines, drops unpaired tool calls, and silently starts the conversation at a broken link), so
 * every way a fork could lose history is checked here instead.
 */
export function validateFork(originalLines: readonly string[], forkLines: readonly string[], options: ValidateOptions = {}): ValidationReport {
  const checks = new Map<CheckId, Check>();
  const check = (id: CheckId): Check => {
    let c = checks.get(id);
    if (!c) {
      c = new Check(id);
      checks.set(id, c);
    }
    return c;
  };
  for (const id of Object.keys(TITLES) as CheckId[]) if (id !== 'planned' || options.actions) check(id);

  const orig = records(originalLines);
  const fork = records(forkLines);
  if (orig.length !== fork.length) {
    check('lines').fail({ detail: `the original has ${orig.length} lines, the fork ${fork.length}` });
  }
  const n = Math.min(orig.length, fork.length);

  // Session ids.
  const origIds = new Set<string>();
  for (const r of orig) {
    const s = r.record ? str(r.record['sessionId']) : undefined;
    if (s) origIds.add(s);
  }
  const forkIds = new Set<string>();
  for (const r of fork) {
    const s = r.record ? str(r.record['sessionId']) : undefined;
    if (s) forkIds.add(s);
  }
  const forkId = forkIds.size === 1 ? [...forkIds][0] ?? null : null;
  if (forkIds.size !== 1) check('session-id').fail({ detail: `the fork's records carry ${forkIds.size} sessionIds (${[...forkIds].slice(0, 3).join(', ')})` });
  else if (forkId && origIds.has(forkId)) check('session-id').fail({ detail: `the fork keeps the original's sessionId ${forkId}` });

  const touched: number[] = [];
  for (let i = 0; i < n; i++) {
    const o = orig[i] as Rec;
    const f = fork[i] as Rec;
    if (o.record && !f.record) check('json').fail({ line: f.line, detail: 'valid JSON in the original, not in the fork' });
    if (!o.record && f.text !== o.text) check('untouched').fail({ line: f.line, detail: 'a line that is not a record was changed' });
    if (!o.record || !f.record) continue;
    const oid = str(o.record['sessionId']);
    const fid = str(f.record['sessionId']);
    if (oid !== undefined && fid === undefined) check('session-id').fail({ line: f.line, detail: 'the record lost its sessionId' });
    if (oid === undefined && fid !== undefined) check('session-id').fail({ line: f.line, detail: 'the record gained a sessionId' });
    const restored = oid !== undefined && forkId ? restoreSessionIdText(f.text, forkId, oid) : f.text;
    if (restored === o.text) continue;
    touched.push(f.line);
    compareTouched(o, f, check, oid, forkId);
  }

  // Thinking blocks: the API rejects modified ones.
  for (let i = 0; i < n; i++) {
    const o = (orig[i] as Rec).record;
    const f = (fork[i] as Rec).record;
    if (!o || !f) continue;
    const ob = contentOf(o);
    const fb = contentOf(f);
    if (!Array.isArray(ob)) continue;
    ob.forEach((b, j) => {
      if (!isObject(b) || (b['type'] !== 'thinking' && b['type'] !== 'redacted_thinking')) return;
      const other = Array.isArray(fb) ? fb[j] : undefined;
      if (JSON.stringify(other) !== JSON.stringify(b)) {
        check('thinking').fail({ line: i + 1, uuid: str(o['uuid']), detail: `thinking block ${j} differs` });
      }
    });
  }

  structural(orig, fork, check);

  // Re-parse both and compare the live chains.
  const os = parseLines(originalLines, 'original');
  const fs = parseLines(forkLines, 'fork');
  const oc = liveChain(os);
  const fc = liveChain(fs);
  if (oc.leafUuid !== fc.leafUuid) {
    check('leaf').fail({ uuid: fc.leafUuid ?? undefined, detail: `the fork resumes from ${fc.leafUuid ?? 'nothing'}, the original from ${oc.leafUuid ?? 'nothing'}` });
  } else if (oc.leafUuid && !fs.nodes.has(oc.leafUuid)) {
    check('leaf').fail({ uuid: oc.leafUuid, detail: 'the leaf record is missing from the fork' });
  }
  compareChains(oc, fc, check, fs.nodes);
  if (touched.length > 0 && !(fc.estimatedTokens < oc.estimatedTokens)) {
    check('tokens').fail({ detail: `estimated tokens did not drop: ${oc.estimatedTokens} → ${fc.estimatedTokens}` });
  }
  if (touched.length === 0 && fc.estimatedTokens !== oc.estimatedTokens) {
    check('tokens').fail({ detail: `nothing was tombstoned but the estimate changed: ${oc.estimatedTokens} → ${fc.estimatedTokens}` });
  }

  if (options.actions) {
    const planned = new Set(options.touchedLines ?? []);
    if (!options.touchedLines) {
      const byUuid = new Map<string, number>();
      for (const r of orig) {
        const u = r.record ? str(r.record['uuid']) : undefined;
        if (u) byUuid.set(u, r.line);
      }
      for (const a of options.actions) {
        const l = a.line ?? byUuid.get(a.uuid);
        if (l !== undefined) planned.add(l);
      }
    }
    for (const l of touched) if (!planned.has(l)) check('planned').fail({ line: l, detail: 'changed, but no planned action names this line' });
    for (const l of planned) if (!touched.includes(l)) check('planned').fail({ line: l, detail: 'planned, but the line is unchanged' });
  }

  const list = [...checks.values()].map((c) => c.result());
  return {
    ok: list.every((c) => c.ok),
    checks: list,
    original: { sessionId: [...origIds][0] ?? null, lines: orig.length, live: oc.uuids.length, estimatedTokens: oc.estimatedTokens, leafUuid: oc.leafUuid },
    fork: { sessionId: forkId, lines: fork.length, live: fc.uuids.length, estimatedTokens: fc.estimatedTokens, leafUuid: fc.leafUuid },
    touchedLines: touched,
  };
}

function contentOf(r: JsonObject): Json | undefined {
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
  if (o['type'] === 'user' && block['type'] === 'tool_result' && path.length === 4 && path[3] === 'content') {
    return block['is_error'] === true ? null : 'result';
  }
  if (o['type'] === 'assistant' && block['type'] === 'tool_use' && path[3] === 'input') {
    const fields = WRITE_TOOL_FIELDS[str(block['name']) ?? ''] ?? [];
    const rest = path.slice(4);
    if (rest.length === 1 && typeof rest[0] === 'string' && fields.includes(rest[0])) return 'input';
    if (rest.length === 3 && rest[0] === 'edits' && typeof rest[1] === 'number' && rest[2] === 'new_string' && fields.includes('edits[].new_string')) return 'input';
  }
  return null;
}

function compareTouched(o: Rec, f: Rec, check: (id: CheckId) => Check, oid: string | undefined, forkId: string | null): void {
  const orec = o.record as JsonObject;
  const frec = f.record as JsonObject;
  const uuid = str(orec['uuid']);
  const paths: Path[] = [];
  diffPaths(orec, frec, [], paths);
  let result = false;
  let mirror = false;
  for (const p of paths) {
    if (p.length === 1 && p[0] === 'sessionId') continue;
    const kind = payloadPath(orec, p);
    if (!kind) {
      const isThinking = (() => {
        const b = getAt(orec, p.slice(0, 3));
        return isObject(b) && (b['type'] === 'thinking' || b['type'] === 'redacted_thinking');
      })();
      if (!isThinking) check('untouched').fail({ line: o.line, uuid, detail: `${fmt(p)} changed, and it is not a payload a fork may replace` });
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
      check('payloads-only').fail({ line: o.line, uuid, detail: `${fmt(p)} was replaced by something other than a tombstone text` });
    } else if (payloadBytes(after) >= payloadBytes(before) || after.length >= (typeof before === 'string' ? before : JSON.stringify(before ?? '')).length) {
      check('payloads-only').fail({ line: o.line, uuid, detail: `${fmt(p)} did not get smaller (${payloadBytes(before)} → ${payloadBytes(after)} bytes)` });
    }
  }
  if (mirror) {
    if (!result) check('payloads-only').fail({ line: o.line, uuid, detail: 'the toolUseResult mirror changed but its tool_result did not' });
    const ob = JSON.stringify(orec['toolUseResult'] ?? null).length;
    const fb = JSON.stringify(frec['toolUseResult'] ?? null).length;
    if (fb > ob) check('payloads-only').fail({ line: o.line, uuid, detail: `the toolUseResult mirror grew (${ob} → ${fb} chars)` });
  }
  // Re-serialisation: the original, with the fork's values put in at the changed paths, must give the
  // fork's line byte for byte — same compact form, same key order everywhere else.
  if (JSON.stringify(orec) !== o.text) {
    check('payloads-only').fail({ line: o.line, uuid, detail: 'a line that was not in compact JSON form was re-serialised' });
    return;
  }
  const expected = structuredClone(orec);
  for (const p of paths) setAt(expected, p, getAt(frec, p));
  if (oid !== undefined && forkId) expected['sessionId'] = forkId;
  if (JSON.stringify(expected) !== f.text) {
    check('payloads-only').fail({ line: o.line, uuid, detail: 'the changed line is not serialised as Claude Code writes it (compact, same key order)' });
  }
}

interface Structure {
  invalid: Set<number>;
  uuids: Map<string, number>;
  dangling: Set<string>;
  orphanResults: Set<string>;
  unansweredUses: Set<string>;
  empty: Set<string>;
}

function structureOf(recs: readonly Rec[]): Structure {
  const s: Structure = { invalid: new Set(), uuids: new Map(), dangling: new Set(), orphanResults: new Set(), unansweredUses: new Set(), empty: new Set() };
  const uses = new Set<string>();
  const results = new Set<string>();
  for (const r of recs) {
    if (!r.record) {
      if (r.text.trim() !== '') s.invalid.add(r.line);
      continue;
    }
    const u = str(r.record['uuid']);
    if (u) s.uuids.set(u, (s.uuids.get(u) ?? 0) + 1);
    const content = contentOf(r.record);
    const type = r.record['type'];
    if ((type === 'user' || type === 'assistant') && (content === '' || (Array.isArray(content) && content.length === 0))) {
      s.empty.add(`${r.line}:message.content`);
    }
    if (!Array.isArray(content)) continue;
    content.forEach((b, j) => {
      if (!isObject(b)) return;
      if (b['type'] === 'tool_use' && typeof b['id'] === 'string') uses.add(b['id']);
      if (b['type'] === 'tool_result') {
        results.add(str(b['tool_use_id']) ?? '');
        const c = b['content'];
        if (c === '' || (Array.isArray(c) && c.length === 0)) s.empty.add(`${r.line}:message.content[${j}].content`);
      }
      if (b['type'] === 'text' && b['text'] === '') s.empty.add(`${r.line}:message.content[${j}].text`);
    });
  }
  for (const r of recs) {
    const p = r.record ? str(r.record['parentUuid']) : undefined;
    if (p && !s.uuids.has(p)) s.dangling.add(`${r.line}:${p}`);
  }
  for (const id of results) if (!uses.has(id)) s.orphanResults.add(id);
  for (const id of uses) if (!results.has(id)) s.unansweredUses.add(id);
  return s;
}

function structural(orig: readonly Rec[], fork: readonly Rec[], check: (id: CheckId) => Check): void {
  const so = structureOf(orig);
  const sf = structureOf(fork);
  for (const l of sf.invalid) if (!so.invalid.has(l)) check('json').fail({ line: l, detail: 'not valid JSON' });
  for (const d of sf.dangling) {
    if (so.dangling.has(d)) continue;
    const [line, parent] = d.split(':');
    check('parents').fail({ line: Number(line), detail: `parentUuid ${parent ?? ''} names no record in the fork` });
  }
  for (const [u, count] of sf.uuids) {
    if (count > 1 && (so.uuids.get(u) ?? 0) < count) check('uuids').fail({ uuid: u, detail: `uuid appears ${count} times` });
  }
  for (const id of sf.orphanResults) if (!so.orphanResults.has(id)) check('orphans').fail({ detail: `tool_result for ${id} has no tool_use` });
  for (const id of sf.unansweredUses) if (!so.unansweredUses.has(id)) check('orphans').fail({ detail: `tool_use ${id} has no tool_result` });
  for (const e of sf.empty) {
    if (so.empty.has(e)) continue;
    const [line, where] = e.split(':');
    check('empty-content').fail({ line: Number(line), detail: `${where ?? ''} is empty` });
  }
}

function compareChains(oc: LiveChain, fc: LiveChain, check: (id: CheckId) => Check, forkNodes: ReadonlyMap<string, { line: number }>): void {
  const fset = new Set(fc.uuids);
  const oset = new Set(oc.uuids);
  for (const u of oc.uuids) if (!fset.has(u)) check('chain').fail({ uuid: u, line: forkNodes.get(u)?.line, detail: 'live in the original, not in the fork' });
  for (const u of fc.uuids) if (!oset.has(u)) check('chain').fail({ uuid: u, line: forkNodes.get(u)?.line, detail: 'live in the fork, not in the original' });
  if (oc.uuids.length === fc.uuids.length && oc.uuids.some((u, i) => fc.uuids[i] !== u)) {
    check('chain').fail({ detail: 'the live records are in a different order' });
  }
}
