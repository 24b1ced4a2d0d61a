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
  /** One block's text as the model read it, from the record at this byte offset and length. */
  blockText(offset: number, length: number, blockIndex: number, cwd: string | null): string | null;
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
  const problems: Problem[] = [];
  // Newest first: each earlier window is parsed, judged and let go before the one before it.
  const newestFirst: CompactionReport[] = [];
  let current = liveEventIn(reconstructWindow(session).nodes, events, Infinity);
  // What follows a compaction, up to the next one, is in the file as parsed for the next one (the newest: the session itself).
  let later: Session = session;
  /** The line of a compaction whose window before could not be rebuilt at all: the chain cannot be followed past it. */
  let brokenAt: number | null = null;
  while (current) {
    const event: CompactionEvent = current;
    const before = port.sessionBefore(event.line);
    const named = event.leafBefore ? before.nodes.get(event.leafBefore) : undefined;
    const leafBefore = named ?? fallbackLeaf(before, thread);
    if (!leafBefore) {
      problems.push({
        code: 'compaction_chain_broken',
        severity: 'warning',
        file: session.path,
        line: event.line,
        message: `${session.path}:${event.line}: the conversation this compaction replaced is not in the file (no record of it before line ${event.line}); what it held cannot be shown`,
      });
      newestFirst.push(report(event, null, later, session, port, ports, options, problems, null));
      brokenAt = event.line;
      break;
    }
    let leafChosen: CompactionReport['leafChosen'] = null;
    if (!named) {
      const missing = event.leafBefore ? `the record it names as the last one it replaced (${event.leafBefore}) is not in the file` : 'it does not name the last record it replaced';
      leafChosen = { uuid: leafBefore.uuid, line: leafBefore.line, reason: `${missing}; the window before it is rebuilt from line ${leafBefore.line}, the conversation's last record before the compaction (as the client picks a leaf)` };
      problems.push({ code: 'compaction_leaf_chosen', severity: 'info', file: session.path, line: event.line, message: `${session.path}:${event.line}: ${leafChosen.reason}` });
    }
    before.leafUuid = leafBefore.uuid;
    newestFirst.push(report(event, before, later, session, port, ports, options, problems, leafChosen));
    current = liveEventIn(reconstructWindow(before).nodes, events, event.line);
    later = before;
  }
  const compactions = newestFirst.reverse();
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
    unreached: events.filter((e) => !onChain.has(e.uuid)).map((e) => unreached(e, brokenAt)),
    problems,
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
    return node ? port.blockText(node.offset, node.length, s.blockIndex, before?.cwd ?? null) : null;
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
