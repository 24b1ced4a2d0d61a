import { isObject, parseObject, str, type Json, type JsonObject } from '../json';
import { renameIdValues } from './ids';

export type CodexCheckId =
  | 'json'
  | 'lines'
  | 'session-id'
  | 'untouched'
  | 'outputs-only'
  | 'pairing'
  | 'ordinals'
  | 'kept-records'
  | 'no-parent'
  | 'planned';

export interface CodexCheckResult {
  id: CodexCheckId;
  title: string;
  ok: boolean;
  failures: { line?: number; detail: string }[];
  /** Failures beyond the ones listed. */
  more: number;
}

export interface CodexValidationReport {
  ok: boolean;
  checks: CodexCheckResult[];
  originalSessionId: string | null;
  forkSessionId: string | null;
  touchedLines: number[];
}

const TITLES: Record<CodexCheckId, string> = {
  json: 'no line that was valid JSON became invalid',
  lines: 'the fork keeps every line, in order',
  'session-id': 'one new session id, on session_meta and on every value that named the old one',
  untouched: 'every other line is byte-identical (but for the session id)',
  'outputs-only': 'changed lines differ only in a function_call_output / custom_tool_call_output text, made shorter',
  pairing: 'every call has exactly one output and every output a call (none newly broken, no duplicate call_id)',
  ordinals: 'every ordinal kept, and the last record has one when the original did',
  'kept-records': 'world_state, turn_context and compacted records (with their replacement history) kept',
  'no-parent': 'the fork stands alone: no history_base pointing at a parent file',
  planned: 'exactly the planned lines changed',
};

/**
 * Compares a fork with its original, line by line, and refuses more than Codex would: Codex skips
 * invalid lines, answers a call without output with "aborted", drops an output without a call and
 * ignores a compaction without its history — each of those is a failure here. In memory (see
 * CodexForkValidator for the same fed line pairs).
 */
export function validateCodexFork(originalLines: readonly string[], forkLines: readonly string[], options: { plannedLines?: readonly number[] } = {}): CodexValidationReport {
  const v = new CodexForkValidator(options);
  const n = Math.max(originalLines.length, forkLines.length);
  for (let i = 0; i < n; i++) v.pair(originalLines[i], forkLines[i], i + 1);
  return v.finish();
}

/**
 * The same validation fed (original, fork) line pairs in order, keeping no line: what it needs of the
 * files (the session headers, calls and outputs, ordinals, kept records) it counts as they go by.
 */
export class CodexForkValidator {
  private readonly checks = new Map<CodexCheckId, CodexCheckResult>();
  /** The first record of each side's header (undefined until its first non-blank line). */
  private originalMeta: JsonObject | null | undefined = undefined;
  private forkMeta: JsonObject | null | undefined = undefined;
  private ids: { oldId: string | null; newId: string | null } | null = null;
  private readonly touched: number[] = [];
  private originalLines = 0;
  private forkLines = 0;
  private readonly originalPairs = newPairing();
  private readonly forkPairs = newPairing();
  private readonly originalKept = newKept();
  private readonly forkKept = newKept();
  private lastOriginal: JsonObject | null = null;
  private lastFork: JsonObject | null = null;
  private lastForkLine = 0;
  private readonly fail: Fail;

  constructor(private readonly options: { plannedLines?: readonly number[] } = {}) {
    for (const id of Object.keys(TITLES) as CodexCheckId[]) this.checks.set(id, { id, title: TITLES[id], ok: true, failures: [], more: 0 });
    this.fail = (id, detail, line) => {
      const c = this.checks.get(id) as CodexCheckResult;
      c.ok = false;
      if (c.failures.length < 20) c.failures.push(line === undefined ? { detail } : { line, detail });
      else c.more++;
    };
  }

  pair(o: string | undefined, f: string | undefined, line: number): void {
    const or = o === undefined ? null : parseObject(o);
    const fr = f === undefined ? null : f === o ? or : parseObject(f);
    if (o !== undefined) {
      this.originalLines = line;
      if (this.originalMeta === undefined && o.trim() !== '') this.originalMeta = metaFrom(or);
      countPairing(this.originalPairs, or);
      countKept(this.originalKept, or);
    }
    if (f !== undefined) {
      this.forkLines = line;
      if (this.forkMeta === undefined && f.trim() !== '') this.forkMeta = metaFrom(fr);
      countPairing(this.forkPairs, fr);
      countKept(this.forkKept, fr);
    }
    if (this.ids === null && this.originalMeta !== undefined && this.forkMeta !== undefined) this.settleIds();
    if (o === undefined || f === undefined) return;
    if (or) this.lastOriginal = or;
    if (fr) {
      this.lastFork = fr;
      this.lastForkLine = line;
    }
    if (or && fr && or['ordinal'] !== fr['ordinal']) this.fail('ordinals', `ordinal ${String(or['ordinal'])} became ${String(fr['ordinal'])}`, line);
    const oldId = this.ids?.oldId ?? null;
    const newId = this.ids?.newId ?? null;
    const restored = newId && oldId ? renameIdValues(f, newId, oldId).text : f;
    if (newId && oldId && oldId !== newId && renameIdValues(f, oldId, oldId).count > 0) this.fail('session-id', 'the old session id is still a value on this line', line);
    if (restored === o) return;
    const back = restored === f ? fr : parseObject(restored);
    if (or && !back) {
      this.fail('json', 'the line is no longer valid JSON', line);
      return;
    }
    this.touched.push(line);
    if (!or || !back) {
      this.fail('untouched', 'a line that was not JSON changed', line);
      return;
    }
    compareOutputLine(or, back, line, this.fail);
  }

  finish(): CodexValidationReport {
    const fail = this.fail;
    if (this.ids === null) this.settleIds();
    if (this.originalLines !== this.forkLines) fail('lines', `the original has ${this.originalLines} lines, the fork ${this.forkLines}`);
    checkPairing(this.forkPairs, this.originalPairs, fail);
    const lastOriginal = this.lastOriginal;
    const lastFork = this.lastFork;
    if (lastOriginal && typeof lastOriginal['ordinal'] === 'number' && (!lastFork || typeof lastFork['ordinal'] !== 'number')) {
      fail('ordinals', 'the last record has no ordinal (Codex refuses to resume such a file)', this.lastForkLine);
    }
    for (const k of Object.keys(this.originalKept)) if (this.originalKept[k] !== this.forkKept[k]) fail('kept-records', `${k}: ${this.originalKept[k]} in the original, ${this.forkKept[k]} in the fork`);
    const forkMeta = this.forkMeta ?? null;
    const newId = this.ids?.newId ?? null;
    if (forkMeta && isObject(forkMeta['history_base'])) fail('no-parent', 'session_meta.history_base names a parent file');
    if (forkMeta && newId && str(forkMeta['session_id']) !== undefined && forkMeta['session_id'] !== newId) fail('session-id', 'session_meta.session_id differs from its id', 1);
    const touched = this.touched;
    if (this.options.plannedLines) {
      const planned = new Set(this.options.plannedLines);
      for (const l of touched) if (!planned.has(l)) fail('planned', 'this line changed but no action names it', l);
      for (const l of planned) if (!touched.includes(l)) fail('planned', 'an action names this line but it did not change', l);
    }
    const list = [...this.checks.values()];
    return { ok: list.every((c) => c.ok), checks: list, originalSessionId: this.ids?.oldId ?? null, forkSessionId: newId, touchedLines: touched };
  }

  /** Both headers are known: the session ids, and what is wrong with the fork's at once. */
  private settleIds(): void {
    const oldId = str(this.originalMeta?.['id']) ?? null;
    const newId = str(this.forkMeta?.['id']) ?? null;
    this.ids = { oldId, newId };
    if (!newId) this.fail('session-id', 'the fork has no session id');
    else if (newId === oldId) this.fail('session-id', 'the fork keeps the original session id');
  }
}

type Fail = (id: CodexCheckId, detail: string, line?: number) => void;

function compareOutputLine(o: JsonObject, f: JsonObject, line: number, fail: Fail): void {
  const oi = itemOf(o);
  const fi = itemOf(f);
  const type = str(oi?.['type']);
  if (!oi || !fi || (type !== 'function_call_output' && type !== 'custom_tool_call_output')) {
    fail('untouched', `a ${type ?? str(o['type']) ?? 'record'} line changed`, line);
    return;
  }
  const before = oi['output'];
  const after = fi['output'];
  if (typeof before !== 'string' || typeof after !== 'string' || after.length >= before.length) {
    fail('outputs-only', 'the output was not replaced by a shorter text', line);
    return;
  }
  if (!sameExcept(o, f, fi === f ? ['output'] : ['payload', 'output'])) fail('outputs-only', 'fields other than the output changed', line);
}

function itemOf(r: JsonObject): JsonObject | null {
  if (r['type'] === 'response_item') return isObject(r['payload']) ? r['payload'] : null;
  return typeof r['call_id'] === 'string' ? r : null;
}

function sameExcept(a: JsonObject, b: JsonObject, path: readonly string[]): boolean {
  const strip = (r: JsonObject): Json => {
    const copy = structuredClone(r) as JsonObject;
    let at: JsonObject = copy;
    for (const k of path.slice(0, -1)) at = at[k] as JsonObject;
    delete at[path[path.length - 1] as string];
    return copy;
  };
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

interface Pairing {
  calls: Map<string, number>;
  outputs: Map<string, number>;
}

function newPairing(): Pairing {
  return { calls: new Map(), outputs: new Map() };
}

function countPairing(p: Pairing, r: JsonObject | null): void {
  const item = r ? itemOf(r) : null;
  const type = str(item?.['type']);
  const id = str(item?.['call_id']);
  if (!id || !type) return;
  if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') p.calls.set(id, (p.calls.get(id) ?? 0) + 1);
  else if (type.endsWith('_output')) p.outputs.set(id, (p.outputs.get(id) ?? 0) + 1);
}

function checkPairing(f: Pairing, o: Pairing, fail: Fail): void {
  for (const [id, count] of f.calls) if (count > 1 && (o.calls.get(id) ?? 0) <= 1) fail('pairing', `call_id ${id} is used by ${count} calls`);
  for (const id of f.calls.keys()) if (!f.outputs.has(id) && o.outputs.has(id)) fail('pairing', `call ${id} lost its output`);
  for (const id of f.outputs.keys()) if (!f.calls.has(id) && o.calls.has(id)) fail('pairing', `the output of ${id} lost its call`);
  for (const [id, count] of f.outputs) if (count !== (o.outputs.get(id) ?? 0)) fail('pairing', `call ${id} has ${count} outputs, the original ${o.outputs.get(id) ?? 0}`);
}

function newKept(): Record<string, number> {
  return { world_state: 0, turn_context: 0, compacted: 0, 'compacted with replacement_history': 0 };
}

function countKept(c: Record<string, number>, r: JsonObject | null): void {
  const type = str(r?.['type']);
  if (!r || !type || !(type in c)) return;
  c[type] = (c[type] ?? 0) + 1;
  if (type === 'compacted' && isObject(r['payload']) && Array.isArray(r['payload']['replacement_history'])) c['compacted with replacement_history'] = (c['compacted with replacement_history'] ?? 0) + 1;
}

/** The session header a rollout's first record gives (its first non-blank line, parsed), or null. */
function metaFrom(r: JsonObject | null): JsonObject | null {
  if (!r) return null;
  if (r['type'] === 'session_meta') return isObject(r['payload']) ? r['payload'] : null;
  return typeof r['id'] === 'string' && !('type' in r) ? r : null;
}
