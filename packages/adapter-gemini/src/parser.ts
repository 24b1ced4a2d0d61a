import type { ChainNode, CompactionEvent, ParseOptions, Problem, Session, SessionStats, ToolCall, TranscriptLineParser, UsageRecord } from '@glassbox/core';
import { parseDocument, type DocLine } from './document';
import { LogReplay, type Replacement } from './log';
import { firstLook } from './recognise';
import { findCwd } from './cwd';
import { GEMINI } from './identity';
import { emptyMeta, type ChatMeta, type PlacedMessage } from './records';
import type { Generation } from './rules';
import { GEMINI_BYTES_PER_TOKEN } from './tokens';
import { buildWindow } from './window';
import { matchRewrittenReplies, type ReplySignature } from './reply-match';

/** As much of the first prompt as the window keeps of a prompt's text. */
const FIRST_PROMPT_CHARS = 200;

/** The neutral session, and what only Gemini has. */
export interface GeminiSession extends Session {
  generation: Generation | null;
  /** sha-256 of the project root, as the file records it (what the cwd is checked against). */
  projectHash: string | null;
  /** `main`, or `subagent` for a subagent's own chat (0.38+ record it). */
  chatKind: 'main' | 'subagent' | null;
  /** Full-replace records of a log (resume rewrites, compressions, masking, rollbacks). */
  replacements: Replacement[];
}

/**
 * A chat file fed one line at a time. A JSONL log (0.39+) is replayed record by record as it comes; a
 * chat document (up to 0.38) is one JSON object over many lines, so its lines are kept until the end
 * and read as one document then (the client rewrites it whole on every change).
 */
export class GeminiParser implements TranscriptLineParser {
  private readonly path: string;
  private readonly fallbackId: string;
  private mode: 'undecided' | 'log' | 'document' | 'refused' = 'undecided';
  private readonly log: LogReplay;
  private readonly docLines: DocLine[] = [];
  private readonly problems: Problem[] = [];
  private readonly stats: SessionStats = { lines: 0, bytes: 0, records: 0, byType: {}, unknownTypes: {}, mirrorBytes: 0, invalidLines: 0 };

  constructor(private readonly options: ParseOptions) {
    this.path = options.path;
    this.fallbackId = options.fallbackId ?? '';
    this.log = new LogReplay(options.path);
  }

  push(text: string, line: number, offset: number, byteLength: number): void {
    this.stats.lines = line;
    this.stats.bytes = offset + byteLength;
    if (this.mode === 'refused') return;
    if (this.mode === 'undecided') {
      if (text.trim() === '') return;
      const look = firstLook([text]);
      // A JSON value over many lines: a chat document, or (`[`) an older /chat save file, named as such.
      const docStart = text.trim() === '{' || text.trim() === '[';
      if (docStart || look.kind === 'document') this.mode = 'document';
      else if (look.kind === 'log') this.mode = 'log';
      else {
        this.mode = 'refused';
        const what = look.kind === 'other' && look.what ? `this is ${look.what}, not a Gemini CLI chat` : 'this is not a Gemini CLI chat (its first record names no sessionId and projectHash)';
        this.problems.push({ code: 'not_a_transcript', severity: 'error', file: this.path, line, message: `${this.path}:${line}: ${what}` });
        return;
      }
    }
    if (this.mode === 'document') this.docLines.push({ text, line, offset });
    else this.log.push(text, { line, offset, length: byteLength });
  }

  /** Whether the file is a JSONL log (0.39+), replayed record by record; false for a document (or not yet known). */
  isLog(): boolean {
    return this.mode === 'log';
  }

  /**
   * The session as finish(true) gives it now, without ending a log's parse (a followed chat): finish
   * runs on a copy whose problems and counts are its own; the replay (messages, usage, replacements)
   * is only read by it. A document is one JSON value: it has no snapshot, it is read whole.
   */
  snapshot(): GeminiSession {
    if (this.mode !== 'log') throw new Error(`${this.path}: only a chat log is followed`);
    const copy = Object.create(GeminiParser.prototype) as GeminiParser;
    Object.assign(copy, this, { problems: [...this.problems], stats: structuredClone(this.stats) });
    return copy.finish(true);
  }

  finish(endsWithNewline = true): GeminiSession {
    if (this.mode === 'undecided') {
      this.problems.push({ code: 'file_empty', severity: 'error', file: this.path, message: `${this.path}: the file is empty` });
      return this.session(emptyMeta(), [], null, []);
    }
    if (this.mode === 'refused') return this.session(emptyMeta(), [], null, []);
    if (this.mode === 'document') {
      const doc = parseDocument(this.docLines, this.path);
      this.docLines.length = 0;
      this.problems.push(...doc.problems);
      this.stats.records = doc.messages.length;
      for (const m of doc.messages) {
        const key = `message/${String(m.message['type'] ?? '?')}`;
        this.stats.byType[key] = (this.stats.byType[key] ?? 0) + 1;
      }
      for (const k of doc.unknownKeys) this.stats.unknownTypes[`key/${k}`] = 1;
      if (doc.problems.length > 0) return this.session(doc.meta, [], null, []);
      const generation: Generation = doc.meta.kind !== null ? 'document' : 'document-legacy';
      return this.session(doc.meta, doc.messages, generation, []);
    }
    const log = this.log;
    this.stats.records = log.records;
    this.stats.invalidLines = log.invalidLines;
    Object.assign(this.stats.byType, log.byType);
    Object.assign(this.stats.unknownTypes, log.unknownTypes);
    this.problems.push(...log.problems);
    if (log.lastInvalidLine !== null && log.lastInvalidLine === this.stats.lines && !endsWithNewline) {
      const p = this.problems.find((q) => q.code === 'invalid_json' && q.line === log.lastInvalidLine);
      if (p) {
        p.code = 'torn_last_line';
        p.message = `${this.path}:${p.line}: the last line is incomplete (Gemini CLI may still be writing it); it was skipped`;
      }
    }
    if (log.meta.sessionId === null) {
      this.problems.push({ code: 'not_a_transcript', severity: 'error', file: this.path, line: 1, message: `${this.path}:1: no session record (sessionId, projectHash): not a Gemini CLI chat log` });
    }
    return this.session(log.meta, log.history(), 'log', log.replacements, log.usageSeen(), log.seen.size, log.agentOfCall, log.signatures);
  }

  private session(meta: ChatMeta, history: PlacedMessage[], generation: Generation | null, replacements: Replacement[], usageSeen: UsageRecord[] = [], messagesSeen = history.length, agentOfCall: ReadonlyMap<string, string> = new Map(), signatures: ReadonlyMap<string, ReplySignature> = new Map()): GeminiSession {
    const cwd = findCwd(meta, history);
    const w = buildWindow(history, generation ?? 'log', cwd, agentOfCall);
    for (const o of w.orphans) this.problems.push({ code: 'orphan_tool_result', severity: 'info', file: this.path, line: o.line, message: `${this.path}:${o.line}: a function response (${o.id}) whose call is not in the history` });
    for (const call of w.toolCalls.values()) {
      if (call.resultUuid === undefined) this.problems.push({ code: 'unanswered_tool_use', severity: 'info', file: this.path, line: call.useLine, message: `${this.path}:${call.useLine}: the call ${call.name} (${call.id}) has no recorded result` });
    }
    let order = w.order;
    const nodes = w.nodes;
    const compactions: CompactionEvent[] = [];
    if (w.compressedAt !== null && generation === 'log') {
      const rep = replacements.find((r) => r.added.includes(w.compressedAt as string)) ?? null;
      const boundary = compressionBoundary(rep, order, nodes);
      order = [boundary.uuid, ...order];
      nodes.set(boundary.uuid, boundary);
      const first = nodes.get(order[1] as string);
      if (first) first.parentUuid = boundary.uuid;
      const summary = nodes.get(w.compressedAt);
      compactions.push({
        uuid: boundary.uuid, line: boundary.line, isSidechain: false, trigger: 'auto', leafBefore: rep?.leafBefore ?? null,
        preTokensMetadata: null, postTokensMetadata: null, preserved: [], reattached: [], firstResponse: null,
        summary: summary ? { uuid: summary.uuid, line: summary.line, offset: summary.offset, length: summary.length, bytes: summary.blocks.reduce((n, b) => n + b.bytes, 0) } : null,
        ...(boundary.timestamp ? { timestamp: boundary.timestamp } : {}),
      });
    }
    // A resume or a compression rewrites the history without the replies' usage and model; the
    // records written when each reply came still carry them: put them back on the window's replies.
    const seenById = new Map(usageSeen.map((u) => [u.messageId, u]));
    for (const n of nodes.values()) {
      if (n.kind !== 'assistant' || n.usage) continue;
      const u = seenById.get(n.uuid);
      if (!u) continue;
      n.usage = u.usage;
      if (u.model !== 'unknown') n.model = u.model;
      delete n.synthetic;
      w.replies.push(u);
    }
    // Masking and compression (0.61) rewrite the history under new ids: such a reply gets its usage
    // from the recorded reply with the same calls (or text), so it is counted in its turn.
    const claimed = new Set(w.replies.map((r) => r.messageId));
    for (const [uuid, u] of matchRewrittenReplies(nodes, history, usageSeen, signatures, claimed)) {
      const n = nodes.get(uuid);
      if (!n) continue;
      n.usage = u.usage;
      if (u.model !== 'unknown') n.model = u.model;
      delete n.synthetic;
      w.replies.push(u);
    }
    this.stats.mirrorBytes = [...nodes.values()].reduce((n, x) => n + x.mirrorBytes, 0);
    const inWindow = new Set(w.replies.map((r) => r.messageId));
    const prunedUsage = usageSeen.filter((u) => !inWindow.has(u.messageId));
    const captured = w.captured;
    const keep = this.options.keepCapturedText === true;
    const toolCalls: Map<string, ToolCall> = w.toolCalls;
    if (keep) for (const c of toolCalls.values()) if (c.op.kind === 'read' && captured.has(c.id)) c.op.capturedText = captured.get(c.id) as string;
    const session: GeminiSession = {
      agent: GEMINI,
      id: meta.sessionId ?? this.fallbackId,
      path: this.path,
      cwd,
      version: null,
      gitBranch: null,
      title: meta.summary ?? null,
      // What the client's list shows (a log's first recorded prompt, which a rewrite may have folded away).
      firstPrompt: generation === 'log' ? (this.log.firstPrompt?.slice(0, FIRST_PROMPT_CHARS) ?? w.firstPrompt) : w.firstPrompt,
      firstTimestamp: meta.startTime ?? this.log.firstTimestamp,
      lastTimestamp: meta.lastUpdated ?? this.log.lastTimestamp,
      nodes,
      order,
      leafUuid: order[order.length - 1] ?? null,
      toolCalls,
      subagents: w.agents.map((a) => ({ agentId: a.agentId, path: subagentPath(this.path, meta.sessionId ?? this.fallbackId, a.agentId), toolUseId: a.toolUseId, agentType: a.name })),
      problems: this.problems,
      stats: this.stats,
      parentFallbackMs: 0,
      bytesPerToken: GEMINI_BYTES_PER_TOKEN,
      prunedUsage,
      prunedRecords: Math.max(0, messagesSeen - history.length),
      compactions,
      capturedTextOf: (call) => captured.get(call.id) ?? null,
      ...(meta.kind === 'subagent' && meta.sessionId ? { agentId: meta.sessionId } : {}),
      generation,
      projectHash: meta.projectHash,
      chatKind: meta.kind,
      replacements,
    };
    return session;
  }
}

/** A subagent's chat lies beside its parent's, in a folder named by the parent's full session id (0.38+). */
function subagentPath(sessionPath: string, sessionId: string, agentId: string): string {
  const cut = Math.max(sessionPath.lastIndexOf('/'), sessionPath.lastIndexOf('\\'));
  const dir = cut >= 0 ? sessionPath.slice(0, cut + 1) : '';
  return `${dir}${sessionId}/${agentId}.jsonl`;
}

/** The boundary a kept compression starts the window at: the full-replace record that made it. */
function compressionBoundary(rep: Replacement | null, order: readonly string[], nodes: Map<string, ChainNode>): ChainNode {
  const first = nodes.get(order[0] as string);
  const at = rep?.at ?? { line: first?.line ?? 1, offset: first?.offset ?? 0, length: first?.length ?? 0 };
  const node: ChainNode = { uuid: `compression@L${at.line}`, parentUuid: null, kind: 'compact-boundary', rawType: '$set/messages', line: at.line, offset: at.offset, length: at.length, isSidechain: false, blocks: [], mirrorBytes: 0, subtype: 'chat compression' };
  if (first?.timestamp) node.timestamp = first.timestamp;
  return node;
}
