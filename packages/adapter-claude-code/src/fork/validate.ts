import { validateFromLines, type ForkValidator, type Session } from '@glassbox/core';
import type { JsonObject } from '../record-types';
import { ChainReader, liveChain, type LiveChain } from './chain';
import { onlySessionIdRenamed, parseShared, sessionIdRenamedInBytes } from './json-line';
import { utf8Bytes } from '../hash';
import { Structure, factsOf, type LineFacts } from './structure';
import { compareTouched, type Rec } from './touched';
import { CopyCheck } from './copy-check';
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
  | 'copies'
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
  copies: 'no payload the fork removes is left in a record that repeats it (a logged request)',
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

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function parse(text: string | undefined): JsonObject | null {
  if (text === undefined || text.trim() === '') return null;
  return parseShared(text)?.record ?? null;
}

/**
 * Differential validation of a fork against its original: it reports what the fork introduced,
 * not what the original already had. The real client never refuses a damaged file (it skips bad
 * lines, drops unpaired tool calls, and silently starts the conversation at a broken link), so
 * every way a fork could lose history is checked here instead.
 *
 * It is fed line pairs and keeps no line: each original line is parsed once (the parse the fork
 * builder's transform made of the same line is reused); a fork line is parsed only when it differs
 * from the original by more than its session id (otherwise its structure is the original line's).
 * Both sides go through the transcript parser as they stream by, for the live chains.
 */
export function createForkValidator(options: ValidateOptions = {}): ClaudeForkValidator {
  return new ClaudeForkValidator(options);
}

/** Validates a fork held in memory against its original (small files and tests). */
export function validateFork(originalLines: readonly string[], forkLines: readonly string[], options: ValidateOptions = {}): ValidationReport {
  return validateFromLines(createForkValidator(options), originalLines, forkLines);
}

export class ClaudeForkValidator implements ForkValidator {
  private readonly checks = new Map<CheckId, Check>();
  private readonly so = new Structure();
  private readonly sf = new Structure();
  private readonly lineOfUuid = new Map<string, number>();
  private readonly touched: number[] = [];
  /** The original's live chain: from the plan's parse when given (options.original), else read here. */
  private readonly originalChain: ChainReader | null;
  private readonly forkChain = new ChainReader('fork');
  private readonly copies = new CopyCheck();
  private forkId: string | null = null;
  private originalLines = 0;
  private forkLines = 0;

  constructor(private readonly options: ValidateOptions) {
    for (const id of Object.keys(TITLES) as CheckId[]) if (id !== 'planned' || options.actions) this.check(id);
    this.originalChain = options.original ? null : new ChainReader('original');
  }

  private check(id: CheckId): Check {
    let c = this.checks.get(id);
    if (!c) {
      c = new Check(id);
      this.checks.set(id, c);
    }
    return c;
  }

  pair(ot: string | undefined, ft: string | undefined, line: number): void {
    const o = this.original(ot, line);
    if (ft === undefined) return;
    this.forkLines = line;
    if (this.forkId === null && ft.includes('"sessionId"')) this.noteForkId(ft);
    if (ot === undefined) {
      const frec = parse(ft);
      if (frec) this.copies.noteHeld(frec, line);
      this.forkChain.push(ft, frec);
      this.sf.add(line, factsOf(frec, ft));
      return;
    }
    if (ft === ot) return this.same(ot, o, line);
    const forkId = this.forkId;
    // The same record but for its session id, which the live chain does not depend on.
    if (o.record && o.facts?.sessionId !== undefined && forkId && onlySessionIdRenamed(ot, ft, o.facts.sessionId, forkId)) return this.renamed(ot, o, forkId, utf8Bytes(ft), line);
    this.changed(ot, o, ft, line);
  }

  /**
   * `pair` from bytes: an unchanged line or one whose session id alone was renamed is told from the
   * bytes (native compares), and the fork's line is decoded only when it differs by more.
   */
  pairBytes(original: { text: string; bytes: Uint8Array }, forkBytes: Uint8Array, line: number): void {
    const ot = original.text;
    const o = this.original(ot, line);
    this.forkLines = line;
    const ob = asBuffer(original.bytes);
    const fb = asBuffer(forkBytes);
    if (this.forkId === null && fb.indexOf('"sessionId"', 0, 'latin1') >= 0) this.noteForkId(fb.toString('utf8'));
    if (ob.equals(fb)) return this.same(ot, o, line, ob.length);
    const forkId = this.forkId;
    const oid = o.facts?.sessionId;
    if (o.record && oid !== undefined && forkId) {
      if (sessionIdRenamedInBytes(ob, fb, oid, forkId)) return this.renamed(ot, o, forkId, fb.length, line);
      const ft = fb.toString('utf8');
      if (onlySessionIdRenamed(ot, ft, oid, forkId)) return this.renamed(ot, o, forkId, fb.length, line);
      return this.changed(ot, o, ft, line);
    }
    this.changed(ot, o, fb.toString('utf8'), line);
  }

  /** The original's side of a line: parsed once (the builder's parse of it is reused), its facts noted. */
  private original(ot: string | undefined, line: number): { record: JsonObject | null; facts: LineFacts | null } {
    if (ot === undefined) return { record: null, facts: null };
    this.originalLines = line;
    const record = parse(ot);
    this.originalChain?.push(ot, record);
    const facts = factsOf(record, ot);
    this.so.add(line, facts);
    if (facts.uuid) this.lineOfUuid.set(facts.uuid, line);
    return { record, facts };
  }

  /** The fork's session id: the one its first record carries. */
  private noteForkId(ft: string): void {
    const sid = parse(ft)?.['sessionId'];
    if (typeof sid === 'string') this.forkId = sid;
  }

  private same(ot: string, o: { record: JsonObject | null; facts: LineFacts | null }, line: number, byteLength?: number): void {
    if (o.record) this.copies.noteHeld(o.record, line);
    this.forkChain.push(ot, o.record, byteLength);
    this.sf.add(line, o.facts as LineFacts);
  }

  private renamed(ot: string, o: { record: JsonObject | null; facts: LineFacts | null }, forkId: string, forkByteLength: number, line: number): void {
    // The original's record stands for the fork's: they differ in nothing the chain reads.
    if (o.record) this.copies.noteHeld(o.record, line);
    this.forkChain.push(ot, o.record, forkByteLength);
    this.sf.add(line, o.facts as LineFacts, forkId);
  }

  /** A line that changed beyond its session id: parsed and compared. */
  private changed(ot: string, o: { record: JsonObject | null; facts: LineFacts | null }, ft: string, line: number): void {
    const orec = o.record;
    const oid = o.facts?.sessionId;
    const forkId = this.forkId;
    const frec = parse(ft);
    this.forkChain.push(ft, frec);
    const ffacts = factsOf(frec, ft);
    this.sf.add(line, ffacts);
    if (!orec) {
      this.check('untouched').fail({ line, detail: 'a line that is not a record was changed' });
      return;
    }
    if (!frec) {
      this.check('json').fail({ line, detail: 'valid JSON in the original, not in the fork' });
      return;
    }
    if (oid !== undefined && ffacts.sessionId === undefined) this.check('session-id').fail({ line, detail: 'the record lost its sessionId' });
    if (oid === undefined && ffacts.sessionId !== undefined) this.check('session-id').fail({ line, detail: 'the record gained a sessionId' });
    this.touched.push(line);
    this.copies.noteHeld(frec, line);
    if (orec['type'] === 'user' || orec['type'] === 'assistant') this.copies.noteRemoved(orec, frec, line);
    const or: Rec = { line, text: ot, record: orec };
    const fr: Rec = { line, text: ft, record: frec };
    compareTouched(or, fr, (id, failure) => this.check(id).fail(failure), oid, forkId);
  }

  finish(): ValidationReport {
    const { so, sf, touched, options } = this;
    const check = (id: CheckId): Check => this.check(id);
    if (this.originalLines !== this.forkLines) {
      check('lines').fail({ detail: `the original has ${this.originalLines} lines, the fork ${this.forkLines}` });
    }
    const forkId = this.forkId;
    if (sf.sessionIds.size !== 1) {
      check('session-id').fail({ detail: `the fork's records carry ${sf.sessionIds.size} sessionIds (${[...sf.sessionIds].slice(0, 3).join(', ')})` });
    } else if (forkId && so.sessionIds.has(forkId)) {
      check('session-id').fail({ detail: `the fork keeps the original's sessionId ${forkId}` });
    }
    structural(so, sf, check);

    // Compare the live chains the client would load from each side.
    const oc = liveChain(this.originalChain?.finish() ?? (options.original as Session));
    const fs = this.forkChain.finish();
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

    for (const f of this.copies.failures()) check('copies').fail(f);

    if (options.actions) {
      const planned = new Set(options.touchedLines ?? []);
      if (!options.touchedLines) {
        for (const a of options.actions) {
          const l = a.line ?? this.lineOfUuid.get(a.uuid);
          if (l !== undefined) planned.add(l);
        }
      }
      const changed = new Set(touched);
      for (const l of touched) if (!planned.has(l)) check('planned').fail({ line: l, detail: 'changed, but no planned action names this line' });
      for (const l of planned) if (!changed.has(l)) check('planned').fail({ line: l, detail: 'planned, but the line is unchanged' });
    }

    const list = [...this.checks.values()].map((c) => c.result());
    return {
      ok: list.every((c) => c.ok),
      checks: list,
      original: { sessionId: [...so.sessionIds][0] ?? null, lines: this.originalLines, live: oc.uuids.length, estimatedTokens: oc.estimatedTokens, leafUuid: oc.leafUuid },
      fork: { sessionId: sf.sessionIds.size === 1 ? forkId : null, lines: this.forkLines, live: fc.uuids.length, estimatedTokens: fc.estimatedTokens, leafUuid: fc.leafUuid },
      touchedLines: touched,
    };
  }
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
