import type { ChainNode, NodeKind, PayloadCopy, Session, SubagentRef } from '@glassbox/core';
import { CLAUDE_BYTES_PER_TOKEN } from './tokens';
import { KNOWN_RECORD_TYPES, isObject, str, type JsonObject } from './record-types';
import { chooseLeaf } from './leaf';
import { pruneBefore } from './parse/compaction';
import { newCompactionTrack, noteCompaction } from './parse/compaction-events';
import { takeAssistant, takeAttachment, takeSystem, takeUser } from './parse/records';
import { cloneState, type ParseState, type SubagentHint } from './parse/state';
import { markReasoningAlone } from './parse/reasoning';
import { settleOrphanResults } from './parse/tool-links';
import { CLAUDE_CODE_REQUEST_POLICY } from './request/policy';
import { inlineSidechainWindows } from './sidechains';
import { newClientCostTrack, noteCostState, noteReplyVersion } from './parse/client-cost';
import { notePayloadCopies } from './parse/payload-copies';
import { settleDetails } from './parse/deferred-details';

export { jsonBytes, parseUsage } from './parse/blocks';

/** Claude Code re-links a missing parent to a record written at most this long before (docs/claude-code/). */
const PARENT_FALLBACK_MS = 5000;

export interface ParserOptions {
  /** The file being parsed, for problem messages and the session path. */
  path: string;
  /** The session id from the file name, used when no record names one. */
  fallbackId?: string;
  /** Keep the text reads captured in memory (for callers that have no file to read it back from). */
  keepCapturedText?: boolean;
  /**
   * Only what the live chain needs (the fork validator's view of each side): no payload hashes,
   * previews of tool calls, prompt texts or read refinements. Uuids, links, kinds and sizes are the same.
   */
  chainOnly?: boolean;
  /** Work out the previews shown beside each block (default true); the index, which keeps only figures, does without. */
  previews?: boolean;
}

/**
 * A parser that takes a transcript one line at a time: it never needs the file as one string. The
 * record mappers live in `parse/` (records, tool links, compaction, blocks); this class keeps the
 * session-wide facts (ids, titles, the leaf) and the problems.
 */
export class TranscriptParser {
  private readonly state: ParseState;
  private readonly fallbackId: string;
  private recognised = 0;
  private sessionId: string | null = null;
  private version: string | null = null;
  private gitBranch: string | null = null;
  private aiTitle: string | null = null;
  private customTitle: string | null = null;
  private summaryTitle: string | null = null;
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private lastPromptLeaf: string | null = null;
  private lastPromptLine = 0;
  private agentId: string | undefined;
  private lastInvalid: { line: number; message: string } | null = null;
  private pendingPrune: ChainNode | null = null;
  private readonly clientCost = newClientCostTrack();
  private readonly payloadCopies = new Map<string, PayloadCopy[]>();

  constructor(options: ParserOptions) {
    this.fallbackId = options.fallbackId ?? '';
    this.state = {
      path: options.path,
      keepCapturedText: options.keepCapturedText === true,
      chainOnly: options.chainOnly === true,
      previews: options.previews !== false && options.chainOnly !== true,
      cwd: null,
      firstPrompt: null,
      nodes: new Map(),
      order: [],
      toolCalls: new Map(),
      problems: [],
      stats: { lines: 0, bytes: 0, records: 0, byType: {}, unknownTypes: {}, mirrorBytes: 0, invalidLines: 0 },
      pendingResults: new Map(),
      subagentHints: new Map(),
      prunedUsage: [],
      prunedRecords: 0,
      settledHistory: 0,
      models: new Map(),
      compactions: newCompactionTrack(),
      renderingVersions: new Set(),
      deferred: [],
      deferredHashes: [],
      deferredChars: 0,
    };
  }

  private get path(): string {
    return this.state.path;
  }

  /**
   * Feeds one line (without its newline). `offset` is the byte offset of the line in the file.
   * `parsed`: the line's record when the caller parsed it already (never changed here).
   */
  push(text: string, line: number, offset: number, byteLength: number, parsed?: JsonObject): void {
    const stats = this.state.stats;
    stats.lines = line;
    stats.bytes = offset + byteLength;
    if (text.length === 0 || /^\s*$/.test(text)) return;
    let record: unknown = parsed;
    if (record === undefined) {
      try {
        record = JSON.parse(text);
      } catch (error) {
        this.invalidLine(line, (error as Error).message);
        return;
      }
    }
    if (!isObject(record)) {
      this.invalidLine(line, 'the line is JSON but not an object');
      return;
    }
    this.lastInvalid = null;
    stats.records++;
    try {
      this.take(record, line, offset, byteLength);
    } catch (error) {
      // A record of a shape no version we know writes: report it and keep reading, never abort.
      this.state.problems.push({
        code: 'invalid_record',
        severity: 'warning',
        file: this.path,
        line,
        message: `${this.path}:${line}: a record of an unexpected shape was skipped (${(error as Error).message})`,
      });
    }
  }

  /**
   * Ends the parse. `endsWithNewline` tells whether the file's last byte was a newline: a last line
   * without one that fails to parse is a torn write (a live session), reported as a warning.
   */
  finish(endsWithNewline = true): Session {
    const { stats, problems } = this.state;
    if (this.lastInvalid && !endsWithNewline && this.lastInvalid.line === stats.lines) {
      const p = problems.find((q) => q.code === 'invalid_json' && q.line === this.lastInvalid?.line);
      if (p) {
        p.code = 'torn_last_line';
        p.severity = 'warning';
        p.message = `${this.path}:${p.line}: the last line is incomplete (the session may still be writing); it was skipped`;
      }
    }
    if (stats.lines === 0 || (stats.records === 0 && stats.invalidLines === 0)) {
      problems.push({
        code: 'file_empty',
        severity: 'error',
        file: this.path,
        message: `${this.path}: the file is empty; there is no session to read`,
      });
    } else if (this.recognised === 0) {
      stats.unknownTypes = {};
      problems.push({
        code: 'not_a_transcript',
        severity: 'error',
        file: this.path,
        line: 1,
        message: `${this.path}: this is not a Claude Code transcript (no line holds a user, assistant or session record)`,
      });
    }
    this.reportUnknownTypes();
    settleOrphanResults(this.state);
    settleDetails(this.state);
    const { nodes, order } = this.state;
    markReasoningAlone(nodes);
    const leafUuid = chooseLeaf(nodes, order, this.lastPromptLeaf, this.lastPromptLine);
    const subagents: SubagentRef[] = [];
    const session: Session = {
      agent: 'claude-code',
      id: this.sessionId ?? this.fallbackId,
      path: this.path,
      cwd: this.state.cwd,
      version: this.version,
      gitBranch: this.gitBranch,
      title: this.customTitle ?? this.aiTitle ?? this.summaryTitle ?? null,
      firstPrompt: this.state.firstPrompt,
      firstTimestamp: this.firstTimestamp,
      lastTimestamp: this.lastTimestamp,
      nodes,
      order,
      leafUuid,
      toolCalls: this.state.toolCalls,
      subagents,
      problems,
      stats,
      parentFallbackMs: PARENT_FALLBACK_MS,
      bytesPerToken: CLAUDE_BYTES_PER_TOKEN,
      prunedUsage: this.state.prunedUsage,
      prunedRecords: this.state.prunedRecords,
      compactions: this.state.compactions.events,
      requestPolicy: CLAUDE_CODE_REQUEST_POLICY,
    };
    if (this.clientCost.last) session.clientCost = this.clientCost.last;
    if (this.payloadCopies.size > 0) session.payloadCopies = this.payloadCopies;
    if (this.agentId !== undefined) session.agentId = this.agentId;
    session.inlineSubagents = inlineSidechainWindows(session);
    return session;
  }

  /**
   * The session as finish(true) would give it now, without ending this parse: finish runs on a copy
   * (its state copied: what a later record can change deep, settled history shared; parse/state.ts).
   */
  snapshot(): Session {
    // Worked out once on this parse, so the copy shares them and has no texts to hold.
    settleDetails(this.state);
    const copy = Object.create(TranscriptParser.prototype) as TranscriptParser;
    Object.assign(copy, this);
    (copy as unknown as { state: ParseState }).state = cloneState(this.state);
    return copy.finish(true);
  }

  /** Agent tool calls seen so far, by the agent id their result names: used to link subagent files. */
  subagentLinks(): ReadonlyMap<string, SubagentHint> {
    return this.state.subagentHints;
  }

  private invalidLine(line: number, reason: string): void {
    this.state.stats.invalidLines++;
    this.lastInvalid = { line, message: reason };
    this.state.problems.push({
      code: 'invalid_json',
      severity: 'warning',
      file: this.path,
      line,
      message: `${this.path}:${line}: invalid JSON (${reason}); the line was skipped`,
    });
  }

  private reportUnknownTypes(): void {
    for (const [type, count] of Object.entries(this.state.stats.unknownTypes)) {
      this.state.problems.push({
        code: 'unknown_record_type',
        severity: 'info',
        file: this.path,
        message: `record type "${type}" is unknown to this version of Glassbox: its ${count} record(s) are left out of the window and every count (${this.path})`,
      });
    }
  }

  private take(r: JsonObject, line: number, offset: number, length: number): void {
    const stats = this.state.stats;
    const type = str(r['type']) ?? '(none)';
    stats.byType[type] = (stats.byType[type] ?? 0) + 1;
    if (KNOWN_RECORD_TYPES.has(type)) this.recognised++;
    else stats.unknownTypes[type] = (stats.unknownTypes[type] ?? 0) + 1;

    const sid = str(r['sessionId']);
    if (sid && this.sessionId === null) this.sessionId = sid;
    const ts = str(r['timestamp']);
    if (ts) {
      if (this.firstTimestamp === null) this.firstTimestamp = ts;
      this.lastTimestamp = ts;
    }
    if (this.takeSessionRecord(type, r, line, offset, length)) return;
    // A type Glassbox does not know is not guessed at: it takes no part in the chain or any figure.
    if (!KNOWN_RECORD_TYPES.has(type)) return;

    const uuid = str(r['uuid']);
    if (!uuid || !('parentUuid' in r)) return;
    if (this.state.cwd === null) this.state.cwd = str(r['cwd']) ?? null;
    if (this.version === null) this.version = str(r['version']) ?? null;
    if (this.gitBranch === null) this.gitBranch = str(r['gitBranch']) ?? null;
    if (this.agentId === undefined && r['isSidechain'] === true) this.agentId = str(r['agentId']);

    const node: ChainNode = {
      uuid,
      parentUuid: str(r['parentUuid']) ?? null,
      kind: 'other',
      rawType: type,
      line,
      offset,
      length,
      isSidechain: r['isSidechain'] === true,
      blocks: [],
      mirrorBytes: 0,
    };
    if (ts) node.timestamp = ts;
    const logical = str(r['logicalParentUuid']);
    if (logical) node.logicalParentUuid = logical;

    let boundary = false;
    switch (type) {
      case 'user':
        takeUser(this.state, r, node);
        break;
      case 'assistant':
        takeAssistant(this.state, r, node);
        if (!node.isSidechain && !node.synthetic) noteReplyVersion(this.clientCost, str(r['version']) ?? null, line);
        break;
      case 'attachment':
        takeAttachment(this.state, r, node);
        break;
      case 'system':
        boundary = takeSystem(this.state, r, node);
        break;
      case 'progress':
        node.kind = 'progress';
        break;
      default:
        node.kind = 'other' satisfies NodeKind;
    }
    if (boundary) this.pendingPrune = node;
    noteCompaction(this.state.compactions, r, node);
    const { nodes, order } = this.state;
    if (nodes.has(uuid)) {
      // A record written twice (a resumed copy): the later line wins, as in the client's uuid map.
      const i = order.indexOf(uuid);
      if (i >= 0) {
        order.splice(i, 1);
        if (i < this.state.settledHistory) this.state.settledHistory--;
      }
    }
    nodes.set(uuid, node);
    order.push(uuid);
    if (this.pendingPrune === node) {
      this.pendingPrune = null;
      if (!node.isSidechain) pruneBefore(this.state, node);
    }
  }

  /** Records that describe the session rather than a message; true when the record was one of them. */
  private takeSessionRecord(type: string, r: JsonObject, line: number, offset: number, length: number): boolean {
    switch (type) {
      case 'cost-state':
        if (str(r['sessionId']) === this.sessionId) noteCostState(this.clientCost, r, line);
        return true;
      case 'api-request-blob':
        if (!this.state.chainOnly) notePayloadCopies(this.payloadCopies, r, { line, offset, length });
        return true;
      case 'last-prompt': {
        const leaf = str(r['leafUuid']);
        if (leaf) {
          this.lastPromptLeaf = leaf;
          this.lastPromptLine = line;
        }
        return true;
      }
      case 'ai-title':
        this.aiTitle = str(r['aiTitle']) ?? this.aiTitle;
        return true;
      case 'custom-title':
        this.customTitle = str(r['customTitle']) ?? str(r['title']) ?? this.customTitle;
        return true;
      case 'summary':
        this.summaryTitle = str(r['summary']) ?? this.summaryTitle;
        return true;
      default:
        return false;
    }
  }
}
