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
 * ignores a compaction without its history — each of those is a failure here.
 */
export function validateCodexFork(originalLines: readonly string[], forkLines: readonly string[], options: { plannedLines?: readonly number[] } = {}): CodexValidationReport {
  const checks = new Map<CodexCheckId, CodexCheckResult>();
  for (const id of Object.keys(TITLES) as CodexCheckId[]) checks.set(id, { id, title: TITLES[id], ok: true, failures: [], more: 0 });
  const fail = (id: CodexCheckId, detail: string, line?: number): void => {
    const c = checks.get(id) as CodexCheckResult;
    c.ok = false;
    if (c.failures.length < 20) c.failures.push(line === undefined ? { detail } : { line, detail });
    else c.more++;
  };

  const oldId = sessionIdOf(originalLines);
  const newId = sessionIdOf(forkLines);
  if (originalLines.length !== forkLines.length) fail('lines', `the original has ${originalLines.length} lines, the fork ${forkLines.length}`);
  if (!newId) fail('session-id', 'the fork has no session id');
  else if (newId === oldId) fail('session-id', 'the fork keeps the original session id');

  const touched: number[] = [];
  const n = Math.min(originalLines.length, forkLines.length);
  for (let i = 0; i < n; i++) {
    const line = i + 1;
    const o = originalLines[i] as string;
    const f = forkLines[i] as string;
    const restored = newId && oldId ? renameIdValues(f, newId, oldId).text : f;
    if (newId && oldId && oldId !== newId && renameIdValues(f, oldId, oldId).count > 0) fail('session-id', 'the old session id is still a value on this line', line);
    if (restored === o) continue;
    const or = parseObject(o);
    const fr = parseObject(restored);
    if (or && !fr) {
      fail('json', 'the line is no longer valid JSON', line);
      continue;
    }
    touched.push(line);
    if (!or || !fr) {
      fail('untouched', 'a line that was not JSON changed', line);
      continue;
    }
    compareOutputLine(or, fr, line, fail);
  }

  checkPairing(forkLines, originalLines, fail);
  checkOrdinals(originalLines, forkLines, fail);
  checkKept(originalLines, forkLines, fail);
  const forkMeta = metaOf(forkLines);
  if (forkMeta && isObject(forkMeta['history_base'])) fail('no-parent', 'session_meta.history_base names a parent file');
  if (forkMeta && newId && str(forkMeta['session_id']) !== undefined && forkMeta['session_id'] !== newId) fail('session-id', 'session_meta.session_id differs from its id', 1);
  if (options.plannedLines) {
    const planned = new Set(options.plannedLines);
    for (const l of touched) if (!planned.has(l)) fail('planned', 'this line changed but no action names it', l);
    for (const l of planned) if (!touched.includes(l)) fail('planned', 'an action names this line but it did not change', l);
  }
  const list = [...checks.values()];
  return { ok: list.every((c) => c.ok), checks: list, originalSessionId: oldId, forkSessionId: newId, touchedLines: touched };
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

function checkPairing(fork: readonly string[], original: readonly string[], fail: Fail): void {
  const o = pairing(original);
  const f = pairing(fork);
  for (const [id, count] of f.calls) if (count > 1 && (o.calls.get(id) ?? 0) <= 1) fail('pairing', `call_id ${id} is used by ${count} calls`);
  for (const id of f.calls.keys()) if (!f.outputs.has(id) && o.outputs.has(id)) fail('pairing', `call ${id} lost its output`);
  for (const id of f.outputs.keys()) if (!f.calls.has(id) && o.calls.has(id)) fail('pairing', `the output of ${id} lost its call`);
  for (const [id, count] of f.outputs) if (count !== (o.outputs.get(id) ?? 0)) fail('pairing', `call ${id} has ${count} outputs, the original ${o.outputs.get(id) ?? 0}`);
}

function pairing(lines: readonly string[]): { calls: Map<string, number>; outputs: Map<string, number> } {
  const calls = new Map<string, number>();
  const outputs = new Map<string, number>();
  for (const t of lines) {
    const r = parseObject(t);
    const item = r ? itemOf(r) : null;
    const type = str(item?.['type']);
    const id = str(item?.['call_id']);
    if (!id || !type) continue;
    if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') calls.set(id, (calls.get(id) ?? 0) + 1);
    else if (type.endsWith('_output')) outputs.set(id, (outputs.get(id) ?? 0) + 1);
  }
  return { calls, outputs };
}

function checkOrdinals(original: readonly string[], fork: readonly string[], fail: Fail): void {
  let lastOriginal: JsonObject | null = null;
  let lastFork: JsonObject | null = null;
  let lastForkLine = 0;
  for (let i = 0; i < Math.min(original.length, fork.length); i++) {
    const o = parseObject(original[i] as string);
    const f = parseObject(fork[i] as string);
    if (o) lastOriginal = o;
    if (f) {
      lastFork = f;
      lastForkLine = i + 1;
    }
    if (o && f && o['ordinal'] !== f['ordinal']) fail('ordinals', `ordinal ${String(o['ordinal'])} became ${String(f['ordinal'])}`, i + 1);
  }
  if (lastOriginal && typeof lastOriginal['ordinal'] === 'number' && (!lastFork || typeof lastFork['ordinal'] !== 'number')) {
    fail('ordinals', 'the last record has no ordinal (Codex refuses to resume such a file)', lastForkLine);
  }
}

function checkKept(original: readonly string[], fork: readonly string[], fail: Fail): void {
  const count = (lines: readonly string[]): Record<string, number> => {
    const c: Record<string, number> = { world_state: 0, turn_context: 0, compacted: 0, 'compacted with replacement_history': 0 };
    for (const t of lines) {
      const r = parseObject(t);
      const type = str(r?.['type']);
      if (!r || !type || !(type in c)) continue;
      c[type] = (c[type] ?? 0) + 1;
      if (type === 'compacted' && isObject(r['payload']) && Array.isArray(r['payload']['replacement_history'])) c['compacted with replacement_history'] = (c['compacted with replacement_history'] ?? 0) + 1;
    }
    return c;
  };
  const o = count(original);
  const f = count(fork);
  for (const k of Object.keys(o)) if (o[k] !== f[k]) fail('kept-records', `${k}: ${o[k]} in the original, ${f[k]} in the fork`);
}

function metaOf(lines: readonly string[]): JsonObject | null {
  for (const t of lines) {
    if (t.trim() === '') continue;
    const r = parseObject(t);
    if (!r) return null;
    if (r['type'] === 'session_meta') return isObject(r['payload']) ? r['payload'] : null;
    return typeof r['id'] === 'string' && !('type' in r) ? r : null;
  }
  return null;
}

function sessionIdOf(lines: readonly string[]): string | null {
  return str(metaOf(lines)?.['id']) ?? null;
}
