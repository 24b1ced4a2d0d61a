import {
  contextTokens,
  type AfterSegment,
  type ChainNode,
  type CompactionEvent,
  type CompactionHistory,
  type CompactionReport,
  type Problem,
  type Segment,
  type Session,
  type UnreachedCompaction,
} from '@glassbox/core';
import { analyzeSession, type AnalyzeOptions } from '../analyze';
import type { AnalysisPorts } from '../ports';
import { reconstructWindow } from '../resident';
import { xrayCompaction } from './xray';

/**
 * What the x-ray needs from the transcript on disk (or in memory), beyond the parsed session: the file
 * as it was before a given line, and text read back from record lines. Memory follows one window at a
 * time: each earlier window is rebuilt by one bounded pass and let go after it is judged.
 */
export interface TranscriptPort {
  /** The transcript parsed up to, not including, this 1-based line. */
  sessionBefore(line: number): Session;
  /**
   * The same for each of these lines, in one pass over the file: `visit` gets them in ascending order.
   * The x-ray uses it when given, so its cost grows with the file, not with the file times the number
   * of compactions (each `sessionBefore` parses from the start).
   */
  sessionsBefore?(lines: readonly number[], visit: (line: number, session: Session) => void): void;
  /** One block's text as the model read it, from the record at this byte offset and length. */
  blockText(offset: number, length: number, blockIndex: number, cwd: string | null, uuid?: string): string | null;
  /** The summary the model wrote at this compaction, without the client's own wording. */
  summaryText(event: CompactionEvent): string | null;
}

export interface HistoryOptions extends Pick<AnalyzeOptions, 'repoRoot' | 'protectTail'> {
  agentId?: string | null;
}

/** Beyond this difference the reported size and the client's own figure are reported as disagreeing. */
const PRE_TOKENS_TOLERANCE = 0.05;

/**
 * The compactions the live conversation went through, oldest first: from the window that resumes, each
 * compaction it starts at, then the one the window before that started at, and so on. For each, the
 * window just before it (the resident-window reconstruction with the compaction's `leafBefore` as
 * leaf; when that record is not in the file, the leaf the client would pick for the file up to the
 * compaction, said in `leafChosen`), judged against the summary, and the window the first request after
 * it carried. Every other compaction of the thread is listed in `unreached`, with the reason.
 */
export function compactionHistory(session: Session, port: TranscriptPort, ports: AnalysisPorts, options: HistoryOptions = {}): CompactionHistory {
  const leaf = session.leafUuid ? session.nodes.get(session.leafUuid) : undefined;
  const thread = leaf?.isSidechain ?? session.agentId !== undefined;
  const events = (session.compactions ?? []).filter((e) => e.isSidechain === thread);
  if (port.sessionsBefore) return historyOf(session, forwardChain(session, events, port, ports, options, thread), events, options);
  const chain: Chain = { newestFirst: [], problems: [], brokenAt: null };
  // Newest first: each earlier window is parsed, judged and let go before the one before it.
  let current = liveEventIn(reconstructWindow(session).nodes, events, Infinity);
  // What follows a compaction, up to the next one, is in the file as parsed for the next one (the newest: the session itself).
  let later: Session = session;
  while (current) {
    const event: CompactionEvent = current;
    const before = port.sessionBefore(event.line);
    const found = leafOf(event, before, thread);
    if (!found) {
      chain.problems.push(brokenProblem(session, event));
      chain.newestFirst.push(report(event, null, later, session, port, ports, options, chain.problems, null));
      chain.brokenAt = event.line;
      break;
    }
    if (found.chosen) chain.problems.push(chosenProblem(session, event, found.chosen));
    before.leafUuid = found.leaf.uuid;
    chain.newestFirst.push(report(event, before, later, session, port, ports, options, chain.problems, found.chosen));
    current = liveEventIn(reconstructWindow(before).nodes, events, event.line);
    later = before;
  }
  return historyOf(session, chain, events, options);
}

/** The leaf of the window before a compaction: the record it names, else the one the client would pick (and why). */
function leafOf(event: CompactionEvent, before: Session, thread: boolean): { leaf: ChainNode; chosen: CompactionReport['leafChosen'] } | null {
  const named = event.leafBefore ? before.nodes.get(event.leafBefore) : undefined;
  if (named) return { leaf: named, chosen: null };
  const leaf = fallbackLeaf(before, thread);
  if (!leaf) return null;
  const missing = event.leafBefore ? `the record it names as the last one it replaced (${event.leafBefore}) is not in the file` : 'it does not name the last record it replaced';
  return { leaf, chosen: { uuid: leaf.uuid, line: leaf.line, reason: `${missing}; the window before it is rebuilt from line ${leaf.line}, the conversation's last record before the compaction (as the client picks a leaf)` } };
}

/** Kinds a conversation's leaf can be: what the client resumes from. */
const LEAF_KINDS = new Set<ChainNode['kind']>(['prompt', 'assistant', 'tool-results']);

/**
 * The leaf of the file as it was before a compaction when the compaction's own `leafBefore` is missing:
 * the one the adapter picked for that partial file (the client's own rule), if it is on this thread;
 * else the last conversation record of the thread in file order.
 */
function fallbackLeaf(before: Session, thread: boolean): ChainNode | undefined {
  const picked = before.leafUuid ? before.nodes.get(before.leafUuid) : undefined;
  if (picked && picked.isSidechain === thread && LEAF_KINDS.has(picked.kind)) return picked;
  for (let i = before.order.length - 1; i >= 0; i--) {
    const n = before.nodes.get(before.order[i] as string);
    if (n && n.isSidechain === thread && LEAF_KINDS.has(n.kind)) return n;
  }
  return undefined;
}

function brokenProblem(session: Session, event: CompactionEvent): Problem {
  return {
    code: 'compaction_chain_broken',
    severity: 'warning',
    file: session.path,
    line: event.line,
    message: `${session.path}:${event.line}: the conversation this compaction replaced is not in the file (no record of it before line ${event.line}); what it held cannot be shown`,
  };
}

function chosenProblem(session: Session, event: CompactionEvent, chosen: NonNullable<CompactionReport['leafChosen']>): Problem {
  return { code: 'compaction_leaf_chosen', severity: 'info', file: session.path, line: event.line, message: `${session.path}:${event.line}: ${chosen.reason}` };
}

/** The x-ray of each compaction on the live chain, newest first, with the problems found on the way. */
interface Chain {
  newestFirst: CompactionReport[];
  problems: Problem[];
  /** The line of a compaction whose window before could not be rebuilt at all: the chain cannot be followed past it. */
  brokenAt: number | null;
}

function historyOf(session: Session, chain: Chain, events: readonly CompactionEvent[], options: HistoryOptions): CompactionHistory {
  const compactions = chain.newestFirst.reverse();
  compactions.forEach((c, i) => {
    c.xray.index = i + 1;
  });
  const onChain = new Set(compactions.map((c) => c.uuid));
  return {
    path: session.path,
    cwd: session.cwd,
    agentId: options.agentId ?? null,
    compactions,
    boundaries: events.length,
    unreached: events.filter((e) => !onChain.has(e.uuid)).map((e) => unreached(e, chain.brokenAt)),
    problems: chain.problems,
  };
}

/** A compaction off the live chain, and why it is. */
function unreached(e: CompactionEvent, brokenAt: number | null): UnreachedCompaction {
  const reason =
    brokenAt !== null && e.line < brokenAt
      ? `before the compaction at line ${brokenAt}, whose replaced conversation is not in the file: the live conversation cannot be followed back this far`
      : 'on a branch the live conversation no longer reaches (it went on from another point, e.g. after a rewind or a resume of an earlier state)';
  return { uuid: e.uuid, line: e.line, at: e.timestamp ?? null, trigger: e.trigger, preTokensMetadata: e.preTokensMetadata, reason };
}

/** What the pass learnt of a compaction: whether its `leafBefore` is in the file, and where the window before it starts. */
interface Before {
  found: boolean;
  /** Set when the compaction's named leaf is missing and another was chosen. */
  chosen: CompactionReport['leafChosen'];
  /** The compaction the window before this one starts at (undefined: none). */
  pred: CompactionEvent | undefined;
}

/**
 * The same chain as the walk in `compactionHistory`, from one pass over the file (`sessionsBefore`):
 * each session before a compaction is taken in file order, and a compaction's report is made as soon
 * as the next compaction whose window starts at it comes (its `later`), after which that session is let
 * go — so a long chain holds two windows at a time, not one per compaction. Which compaction the live
 * window starts at is known only at the end: reports are kept per successor and the chain is read back
 * from the live window. A session let go that is needed again (a compaction two branches start at) is
 * parsed again by `sessionBefore`.
 */
function forwardChain(session: Session, events: readonly CompactionEvent[], port: TranscriptPort, ports: AnalysisPorts, options: HistoryOptions, thread: boolean): Chain {
  const byLine = new Map(events.map((e) => [e.line, e]));
  const befores = new Map<string, Before>();
  /** Sessions before compactions not yet continued by a later one (with their leaf set as the walk sets it). */
  const held = new Map<string, Session | null>();
  /** The report of a compaction as continued by its successor (a compaction's uuid, or '' for the live window), and its problems. */
  const made = new Map<string, { report: CompactionReport; problems: Problem[] }>();
  const key = (event: CompactionEvent, succ: string) => `${event.uuid}\0${succ}`;
  const sessionOf = (event: CompactionEvent): Session | null => {
    if (held.has(event.uuid)) return held.get(event.uuid) ?? null;
    // Let go after an earlier successor's report: parsed again (only where the chain branches).
    const again = port.sessionBefore(event.line);
    const found = leafOf(event, again, thread);
    if (!found) return null;
    again.leafUuid = found.leaf.uuid;
    return again;
  };
  const reportFor = (event: CompactionEvent, succ: string, later: Session): void => {
    if (made.has(key(event, succ))) return;
    const problems: Problem[] = [];
    made.set(key(event, succ), { report: report(event, sessionOf(event), later, session, port, ports, options, problems, befores.get(event.uuid)?.chosen ?? null), problems });
  };
  port.sessionsBefore?.(
    events.map((e) => e.line),
    (line, parsed) => {
      const event = byLine.get(line);
      if (!event) return;
      const found = leafOf(event, parsed, thread);
      if (found) parsed.leafUuid = found.leaf.uuid;
      const pred = found ? liveEventIn(reconstructWindow(parsed).nodes, events, event.line) : undefined;
      befores.set(event.uuid, { found: found !== null, chosen: found?.chosen ?? null, pred });
      held.set(event.uuid, found ? parsed : null);
      if (pred) {
        reportFor(pred, event.uuid, parsed);
        held.delete(pred.uuid);
      }
    },
  );
  const chain: Chain = { newestFirst: [], problems: [], brokenAt: null };
  let current = liveEventIn(reconstructWindow(session).nodes, events, Infinity);
  let succ: CompactionEvent | null = null;
  while (current) {
    const event: CompactionEvent = current;
    const before = befores.get(event.uuid);
    if (!before) break;
    if (!before.found) {
      chain.problems.push(brokenProblem(session, event));
      chain.brokenAt = event.line;
    } else if (before.chosen) chain.problems.push(chosenProblem(session, event, before.chosen));
    const k = key(event, succ?.uuid ?? '');
    if (!made.has(k)) reportFor(event, succ?.uuid ?? '', succ ? (sessionOf(succ) ?? session) : session);
    const done = made.get(k);
    if (done) {
      chain.newestFirst.push(done.report);
      chain.problems.push(...done.problems);
    }
    if (!before.found) break;
    succ = event;
    current = before.pred;
  }
  return chain;
}

/** The latest compaction (before `beforeLine`) whose record is on this window's chain. */
function liveEventIn(nodes: readonly ChainNode[], events: readonly CompactionEvent[], beforeLine: number): CompactionEvent | undefined {
  const onChain = new Set(nodes.map((n) => n.uuid));
  let best: CompactionEvent | undefined;
  for (const e of events) if (e.line < beforeLine && onChain.has(e.uuid) && (!best || e.line > best.line)) best = e;
  return best;
}

/** One compaction's x-ray; its index is set once the whole chain is known. */
function report(
  event: CompactionEvent,
  before: Session | null,
  later: Session,
  session: Session,
  port: TranscriptPort,
  ports: AnalysisPorts,
  options: HistoryOptions,
  problems: Problem[],
  leafChosen: CompactionReport['leafChosen'],
): CompactionReport {
  const summaryText = port.summaryText(event);
  const base = analyzeOptions(options);
  const snapshot = before ? analyzeSession(before, ports, { ...base, ...modelOf(before) }) : null;
  const textOf = (s: Segment): string | null => {
    const node = before?.nodes.get(s.uuid);
    return node ? port.blockText(node.offset, node.length, s.blockIndex, before?.cwd ?? null, s.uuid) : null;
  };
  const { xray, figures } = xrayCompaction({
    index: 0,
    event,
    before: before ?? session,
    segments: snapshot?.segments ?? [],
    reportedTokens: snapshot?.context.reportedTokens ?? null,
    summaryText,
    textOf,
  });
  const delta = xray.preTokens !== null && xray.preTokensMetadata ? (xray.preTokens - xray.preTokensMetadata) / xray.preTokensMetadata : null;
  if (delta !== null && Math.abs(delta) > PRE_TOKENS_TOLERANCE) {
    problems.push({
      code: 'pre_tokens_differ',
      severity: 'info',
      file: session.path,
      line: event.line,
      message: `${session.path}:${event.line}: the last reported request before this compaction carried ${xray.preTokens} tokens; the client wrote ${xray.preTokensMetadata} (${(delta * 100).toFixed(1)} %)`,
    });
  }
  const after = afterWindow(event, later, ports, base);
  return {
    xray,
    uuid: event.uuid,
    isSidechain: event.isSidechain,
    postTokensMetadata: event.postTokensMetadata,
    postTokens: after.tokens,
    summary: event.summary ? { uuid: event.summary.uuid, line: event.summary.line, text: summaryText } : null,
    instructions: event.instructions ?? null,
    after: after.segments,
    figures,
    preTokensDelta: delta,
    leafChosen,
  };
}

/**
 * The window the first request after the compaction carried, and the size the provider reported for
 * it, from a parse that holds what followed the compaction (`later`).
 */
function afterWindow(event: CompactionEvent, later: Session, ports: AnalysisPorts, base: AnalyzeOptions): { segments: AfterSegment[]; tokens: number | null } {
  const first = event.firstResponse;
  const response = first ? later.nodes.get(first.uuid) : undefined;
  if (!first?.parentUuid || !response || !later.nodes.has(first.parentUuid)) return { segments: [], tokens: null };
  const upTo: Session = { ...later, leafUuid: first.parentUuid };
  const snap = analyzeSession(upTo, ports, { ...base, ...modelOf(upTo) });
  const segments = snap.segments.map((s) => ({
    segmentId: s.id,
    uuid: s.uuid,
    line: s.line,
    kind: s.kind,
    sourceType: s.source.type,
    label: s.source.label,
    tokens: s.tokens,
    class: s.class,
  }));
  return { segments, tokens: response.usage ? contextTokens(response.usage) : null };
}

function analyzeOptions(options: HistoryOptions): AnalyzeOptions {
  const out: AnalyzeOptions = { repoRoot: options.repoRoot ?? null };
  if (options.protectTail !== undefined) out.protectTail = options.protectTail;
  return out;
}

/** The request before a compaction went to the model of the last reply before it: its reasoning is what was sent. */
function modelOf(session: Session): { model?: string } {
  const nodes = reconstructWindow(session).nodes;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i];
    if (n?.kind === 'assistant' && n.model && !n.synthetic) return { model: n.model };
  }
  return {};
}
