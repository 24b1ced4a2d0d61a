import { isObject, type JsonObject } from '../record-types';
import { liveChain, parseLines, type LiveChain } from './chain';
import { restoreSessionIdText } from './json-line';
import { Structure, factsOf, type LineFacts } from './structure';
import { compareTouched, type Rec } from './touched';
import type { CheckFailure, CheckResult as CoreCheckResult, ValidateOptions, ValidationReport } from '@glassbox/core';

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

export type { CheckFailure, ValidateOptions, ValidationReport } from '@glassbox/core';

export interface CheckResult extends CoreCheckResult {
  id: CheckId;
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

function parse(text: string | undefined): JsonObject | null {
  if (text === undefined || text.trim() === '') return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** The fork's session id: the one its first record carries. */
function forkSessionId(forkLines: readonly string[]): string | null {
  for (const text of forkLines) {
    if (!text.includes('"sessionId"')) continue;
    const sid = parse(text)?.['sessionId'];
    if (typeof sid === 'string') return sid;
  }
  return null;
}

/**
 * Differential validation of a fork against its original: it reports what the fork introduced,
 * not what the original already had. The real client never refuses a damaged file (it skips bad
 * lines, drops unpaired tool calls, and silently starts the conversation at a broken link), so
 * every way a fork could lose history is checked here instead.
 *
 * Memory follows one line at a time: each original line is parsed once; a fork line is parsed only
 * when it differs from the original by more than its session id (otherwise its structure is the
 * original line's); parsed records are not kept.
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

  if (originalLines.length !== forkLines.length) {
    check('lines').fail({ detail: `the original has ${originalLines.length} lines, the fork ${forkLines.length}` });
  }
  const forkId = forkSessionId(forkLines);
  const so = new Structure();
  const sf = new Structure();
  const lineOfUuid = new Map<string, number>();
  const touched: number[] = [];
  const n = Math.max(originalLines.length, forkLines.length);
  for (let i = 0; i < n; i++) {
    const line = i + 1;
    const ot = originalLines[i];
    const ft = forkLines[i];
    const orec = parse(ot);
    const ofacts = ot === undefined ? null : factsOf(orec, ot);
    if (ofacts) {
      so.add(line, ofacts);
      if (ofacts.uuid) lineOfUuid.set(ofacts.uuid, line);
    }
    if (ft === undefined) continue;
    if (ot === undefined) {
      sf.add(line, factsOf(parse(ft), ft));
      continue;
    }
    const oid = ofacts?.sessionId;
    if (ft === ot) {
      sf.add(line, ofacts as LineFacts);
      continue;
    }
    if (orec && oid !== undefined && forkId) {
      const restored = restoreSessionIdText(ft, forkId, oid);
      if (restored.count === 1 && restored.text === ot) {
        sf.add(line, { ...(ofacts as LineFacts), sessionId: forkId });
        continue;
      }
    }
    // The line changed beyond its session id.
    const frec = parse(ft);
    const ffacts = factsOf(frec, ft);
    sf.add(line, ffacts);
    if (!orec) {
      check('untouched').fail({ line, detail: 'a line that is not a record was changed' });
      continue;
    }
    if (!frec) {
      check('json').fail({ line, detail: 'valid JSON in the original, not in the fork' });
      continue;
    }
    if (oid !== undefined && ffacts.sessionId === undefined) check('session-id').fail({ line, detail: 'the record lost its sessionId' });
    if (oid === undefined && ffacts.sessionId !== undefined) check('session-id').fail({ line, detail: 'the record gained a sessionId' });
    touched.push(line);
    const o: Rec = { line, text: ot, record: orec };
    const f: Rec = { line, text: ft, record: frec };
    compareTouched(o, f, (id, failure) => check(id).fail(failure), oid, forkId);
  }

  if (sf.sessionIds.size !== 1) {
    check('session-id').fail({ detail: `the fork's records carry ${sf.sessionIds.size} sessionIds (${[...sf.sessionIds].slice(0, 3).join(', ')})` });
  } else if (forkId && so.sessionIds.has(forkId)) {
    check('session-id').fail({ detail: `the fork keeps the original's sessionId ${forkId}` });
  }
  structural(so, sf, check);

  // Re-parse both and compare the live chains (one parsed session at a time).
  const oc = liveChain(parseLines(originalLines, 'original'));
  const fs = parseLines(forkLines, 'fork');
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
      for (const a of options.actions) {
        const l = a.line ?? lineOfUuid.get(a.uuid);
        if (l !== undefined) planned.add(l);
      }
    }
    const changed = new Set(touched);
    for (const l of touched) if (!planned.has(l)) check('planned').fail({ line: l, detail: 'changed, but no planned action names this line' });
    for (const l of planned) if (!changed.has(l)) check('planned').fail({ line: l, detail: 'planned, but the line is unchanged' });
  }

  const list = [...checks.values()].map((c) => c.result());
  return {
    ok: list.every((c) => c.ok),
    checks: list,
    original: { sessionId: [...so.sessionIds][0] ?? null, lines: originalLines.length, live: oc.uuids.length, estimatedTokens: oc.estimatedTokens, leafUuid: oc.leafUuid },
    fork: { sessionId: sf.sessionIds.size === 1 ? forkId : null, lines: forkLines.length, live: fc.uuids.length, estimatedTokens: fc.estimatedTokens, leafUuid: fc.leafUuid },
    touchedLines: touched,
  };
}

function structural(so: Structure, sf: Structure, check: (id: CheckId) => Check): void {
  for (const l of sf.invalid) if (!so.invalid.has(l)) check('json').fail({ line: l, detail: 'not valid JSON' });
  const od = so.dangling();
  for (const d of sf.dangling()) {
    if (od.has(d)) continue;
    const [line, parent] = d.split(':');
    check('parents').fail({ line: Number(line), detail: `parentUuid ${parent ?? ''} names no record in the fork` });
  }
  for (const [u, count] of sf.uuids) {
    if (count > 1 && (so.uuids.get(u) ?? 0) < count) check('uuids').fail({ uuid: u, detail: `uuid appears ${count} times` });
  }
  const oo = so.orphanResults();
  const ou = so.unansweredUses();
  for (const id of sf.orphanResults()) if (!oo.has(id)) check('orphans').fail({ detail: `tool_result for ${id} has no tool_use` });
  for (const id of sf.unansweredUses()) if (!ou.has(id)) check('orphans').fail({ detail: `tool_use ${id} has no tool_result` });
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
