import type { Block, ChainNode, Problem, SessionStats, ToolCall } from '@glassbox/core';
import { CODEX_BYTES_PER_TOKEN, tokensOf } from './tokens';
import { fromSessionMeta, inheritedRecord, ownHistory, type InheritedState } from './inherited';
import { contentBlocks, contentText, outputBlock, outputText, preview, reasoningBlocks } from './blocks';
import { normaliseRecord, recogniseFirstRecord, type Generation, type RolloutRecord } from './generation';
import { isObject, str, type Json, type JsonObject } from './json';
import { readFromOutput } from './read-grammar';
import { CallLinker } from './call-linker';
import { utf8Bytes } from './hash';
import { ASSISTANT_ITEMS, CLIENT_ONLY_ITEMS, OUTPUT_ITEMS, PROMPT_PREVIEW_CHARS, messageRole } from './item-kinds';
import type { CodexSession, ParserOptions } from './session-types';
import { WindowChain } from './window-chain';
import { threadName } from './thread-name';
import { isUnreadRecord, recordHead } from './record-head';
import { ReplyGroups } from './reply-groups';
import { emptyMeta, takeMeta } from './session-meta';
import { closingProblems } from './closing-problems';
import { copyState } from './copy-state';
import { compactionEvent, newCodexCompactions, noteMessage, noteReply } from './compaction-events';

export type { CodexSession, ParserOptions } from './session-types';

/** A rollout parser that takes one line at a time; it never needs the file as one string. */
export class RolloutParser {
  private readonly path: string;
  private readonly fallbackId: string;
  private readonly calls: CallLinker;
  private readonly win = new WindowChain();
  private readonly problems: Problem[] = [];
  private readonly stats: SessionStats = { lines: 0, bytes: 0, records: 0, byType: {}, unknownTypes: {}, mirrorBytes: 0, invalidLines: 0 };
  private readonly replies = new ReplyGroups(this.win.prunedUsage);
  private generation: Generation | null = null;
  private refused: Problem | null = null;
  private firstRecordSeen = false;
  private readonly meta = emptyMeta();
  private turnCwd: string | null = null;
  private model = 'unknown';
  private firstPrompt: string | null = null;
  private title: string | null = null;
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private lastInvalid: number | null = null;
  private passedOver: { text: string; line: number } | null = null;
  /** Whether records are a forked thread's copy of its parent's history (inherited.ts). */
  private readonly inherited: InheritedState = ownHistory();
  /** The line of the copied parent header that opened a copy (for the warning when the copy never ends). */
  private copyFrom: number | null = null;
  private readonly promptBlocks: Block[][] = [];
  /** The compactions so far, for the x-ray (compaction-events.ts). */
  private readonly compactions = newCodexCompactions();
  /**
   * Blocks made when the parse ends, for the items still in the window: in a long session most items
   * are let go by a later compaction, and sizing them (previews, byte counts) would be wasted.
   */
  private lazy: { node: ChainNode; make: () => Block[] }[] = [];

  constructor(options: ParserOptions) {
    this.path = options.path;
    this.fallbackId = options.fallbackId ?? '';
    this.calls = new CallLinker(options.keepCapturedText === true);
  }

  /** Feeds one line (without its newline). `offset` is the byte offset of the line in the file. */
  push(text: string, line: number, offset: number, byteLength: number): void {
    this.stats.lines = line;
    this.stats.bytes = offset + byteLength;
    if (this.refused || text.trim() === '') return;
    if (this.generation !== null && this.generation !== 'bare' && this.passOver(text, line)) return;
    this.passedOver = null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.invalid(line, `invalid JSON (${(error as Error).message})`);
      return;
    }
    if (!isObject(value)) {
      this.invalid(line, 'the line is JSON but not an object');
      return;
    }
    this.lastInvalid = null;
    this.stats.records++;
    if (!this.firstRecordSeen) {
      this.firstRecordSeen = true;
      const r = recogniseFirstRecord(value);
      if (r.kind !== 'codex') {
        const message =
          r.kind === 'claude-code'
            ? 'this is a Claude Code transcript, not a Codex rollout'
            : r.kind === 'unknown-generation'
              ? `a Codex rollout of an unknown generation: ${r.reason}`
              : `this is not a Codex rollout: ${r.reason}`;
        this.refused = { code: 'not_a_transcript', severity: 'error', file: this.path, line, message: `${this.path}:${line}: ${message}` };
        return;
      }
      this.generation = r.generation;
    }
    const record = normaliseRecord(value, this.generation as Generation, this.stats.records === 1);
    if (!record) {
      this.problem('invalid_record', 'warning', line, 'a record of an unexpected shape was skipped');
      return;
    }
    try {
      this.take(record, line, offset, byteLength);
    } catch (error) {
      this.problem('invalid_record', 'warning', line, `a record of an unexpected shape was skipped (${(error as Error).message})`);
    }
  }

  /**
   * A UI event or client-state record (most of a 2026 rollout's bytes: every command output comes
   * again in its `item_completed` event) is counted from its first bytes, not parsed. The last line
   * passed over is parsed at the end if the file did not end with a newline (a torn write).
   */
  private passOver(text: string, line: number): boolean {
    const head = recordHead(text);
    if (!head || !isUnreadRecord(head, text)) return false;
    this.lastInvalid = null;
    this.stats.records++;
    const key = head.type === 'event_msg' ? `event_msg/${head.sub ?? '?'}` : head.type;
    this.stats.byType[key] = (this.stats.byType[key] ?? 0) + 1;
    if (head.timestamp) {
      this.firstTimestamp ??= head.timestamp;
      this.lastTimestamp = head.timestamp;
    }
    this.passedOver = { text, line };
    return true;
  }

  /** Ends the parse; `endsWithNewline` tells whether a bad last line is a torn write of a live session. */
  finish(endsWithNewline = true): CodexSession {
    const last = this.passedOver;
    if (last && !endsWithNewline && last.line === this.stats.lines && parseLine(last.text) === null) {
      this.stats.records--;
      this.invalid(last.line, 'invalid JSON');
    }
    if (this.lastInvalid !== null && this.lastInvalid === this.stats.lines && !endsWithNewline) {
      const p = this.problems.find((q) => q.code === 'invalid_json' && q.line === this.lastInvalid);
      if (p) {
        p.code = 'torn_last_line';
        p.message = `${this.path}:${p.line}: the last line is incomplete (the session may still be writing); it was skipped`;
      }
    }
    if (this.inherited.mode === 'copy' && this.copyFrom !== null) {
      this.problem('invalid_record', 'warning', this.copyFrom, "a copy of the parent's history starts here (a forked thread) and never reaches the spawn output Codex ends such a copy with: no usage after this line is counted as this thread's");
    }
    this.replies.finish();
    for (const l of this.lazy) if (this.win.nodes.has(l.node.uuid)) l.node.blocks = l.make();
    this.lazy = [];
    this.calls.settle(this.win.nodes);
    if (this.refused) this.problems.unshift(this.refused);
    this.problems.push(...closingProblems({ path: this.path, stats: this.stats, generation: this.generation, refused: this.refused !== null, calls: this.calls }));
    const session: CodexSession = {
      agent: 'codex',
      id: this.meta.sessionId ?? this.fallbackId,
      path: this.path,
      cwd: this.meta.cwd,
      version: this.meta.version,
      gitBranch: this.meta.gitBranch,
      title: this.title,
      firstPrompt: this.firstPrompt,
      firstTimestamp: this.firstTimestamp,
      lastTimestamp: this.lastTimestamp,
      nodes: this.win.nodes,
      order: this.win.order,
      leafUuid: this.win.lastUuid,
      toolCalls: this.calls.toolCalls,
      subagents: [],
      problems: this.problems,
      stats: this.stats,
      parentFallbackMs: 0,
      bytesPerToken: CODEX_BYTES_PER_TOKEN,
      prunedUsage: this.win.prunedUsage,
      prunedRecords: this.win.prunedRecords,
      generation: this.generation,
      requests: this.replies.requests,
      reported: this.replies.reported,
      forkedFromId: this.meta.forkedFromId,
      historyBase: this.meta.historyBase,
      compactions: this.compactions.events,
    };
    return session;
  }

  /**
   * A parser in the state this one is in, to finish while this one reads on (a followed session:
   * finish() settles calls, makes the window's blocks and closes the open reply, in place). It costs
   * the state: the window since the last compaction, and one entry per request and prompt.
   */
  copy(): RolloutParser {
    // The let-go usage and the requests: records made once and only ever added to (window-chain.ts,
    // reply-groups.ts), so the copy shares them.
    return copyState(this, new Set<readonly unknown[]>([this.win.prunedUsage, this.replies.requests]));
  }

  /** The text a pure read captured, from its output line as read back from the file. */
  capturedTextFromOutputLine(call: ToolCall, lineText: string): string | null {
    const found = this.calls.readSpecs.get(call.id);
    const record = parseLine(lineText);
    if (!found || !record) return null;
    const item = this.generation === 'bare' ? record : record['payload'];
    if (!isObject(item) || item['call_id'] !== call.id) return null;
    const { body } = outputBlock(call.id, outputText(item['output']));
    return readFromOutput(found.spec, body, found.workdir, true)?.capturedText ?? null;
  }

  private invalid(line: number, reason: string): void {
    this.stats.invalidLines++;
    this.lastInvalid = line;
    this.problem('invalid_json', 'warning', line, `${reason}; the line was skipped (Codex skips it too)`);
  }

  private problem(code: Problem['code'], severity: Problem['severity'], line: number, message: string): void {
    this.problems.push({ code, severity, file: this.path, line, message: `${this.path}:${line}: ${message}` });
  }

  private take(record: RolloutRecord, line: number, offset: number, length: number): void {
    const p = record.payload;
    const sub = str(p['type']);
    const key = record.type === 'response_item' || record.type === 'event_msg' ? `${record.type}/${sub ?? '?'}` : record.type;
    this.stats.byType[key] = (this.stats.byType[key] ?? 0) + 1;
    if (record.timestamp) {
      this.firstTimestamp ??= record.timestamp;
      this.lastTimestamp = record.timestamp;
    }
    let inherited = false;
    if (this.stats.records === 1 && record.type === 'session_meta') Object.assign(this.inherited, fromSessionMeta(p));
    else if (this.inherited.mode !== 'own') {
      const r = inheritedRecord(this.inherited, { type: record.type, payload: p, ordinal: record.ordinal });
      inherited = r.inherited;
      if (this.inherited.mode === 'copy') this.copyFrom ??= line;
      // The thread's own history begins: no reply of the parent's stays open into it.
      if (r.ended) this.replies.endInherited();
    }
    switch (record.type) {
      case 'session_meta':
        // A copied parent header names the parent: it changes nothing of the thread's.
        if (!inherited) takeMeta(this.meta, p);
        return;
      case 'turn_context':
        this.model = str(p['model']) ?? this.model;
        this.turnCwd = str(p['cwd']) ?? this.turnCwd;
        return;
      case 'response_item':
        this.takeItem(p, line, offset, length, record.timestamp);
        return;
      case 'compacted':
        this.takeCompacted(p, line, offset, length, record.timestamp);
        return;
      case 'event_msg':
        if (sub === 'token_count') {
          // The parent's requests, copied with its history: counted in the parent's file, not here.
          if (inherited) this.replies.inheritedCount(p);
          else if (!this.replies.tokenCount(p, line, record.timestamp, this.model, this.generation)) {
            this.problem('invalid_usage', 'warning', line, "the request's usage holds a token count that is not a whole number of 0 or more; it was counted as 0");
          }
        }
        else if (sub === 'thread_name_updated') this.title = threadName(p);
        return;
      case 'state':
      case 'world_state':
      case 'token_usage_record':
      case 'inter_agent_communication':
      case 'inter_agent_communication_metadata':
      case 'security_risk_score':
      case 'retained_context':
      case 'realtime_item':
        return;
      default:
        this.stats.unknownTypes[record.type] = (this.stats.unknownTypes[record.type] ?? 0) + 1;
    }
  }

  private newNode(uuid: string, rawType: string, line: number, offset: number, length: number, ts?: string): ChainNode {
    const node: ChainNode = { uuid, parentUuid: this.win.lastUuid, kind: 'other', rawType, line, offset, length, isSidechain: false, blocks: [], mirrorBytes: 0 };
    if (ts) node.timestamp = ts;
    return node;
  }

  private append(node: ChainNode): void {
    this.win.append(node);
  }

  /** Builds the node of one Responses API item (shared by file items and replacement history). */
  private itemNode(item: JsonObject, uuid: string, line: number, offset: number, length: number, ts: string | undefined, carried: boolean): ChainNode {
    const type = str(item['type']) ?? '?';
    const node = this.newNode(uuid, `response_item/${type}`, line, offset, length, ts);
    if (type === 'message') {
      const role = str(item['role']) ?? '';
      // Only a user message can be a prompt or a summary: the others' text is not needed now.
      const text = role === 'user' ? contentText(item['content']) : '';
      const kind = messageRole(role, text, carried);
      if (kind === 'assistant') node.kind = 'assistant';
      else if (kind === 'summary') node.kind = 'compact-summary';
      else if (kind === 'prompt') {
        node.kind = 'prompt';
        node.blocks = contentBlocks(item['content']);
        node.promptText = text.slice(0, PROMPT_PREVIEW_CHARS);
        this.firstPrompt ??= node.promptText;
        this.promptBlocks.push(node.blocks);
      } else {
        node.kind = 'meta';
        node.subtype = carried ? 'replacement history' : role === 'user' ? 'context' : role || 'message';
      }
      // Prompts outlive a compaction (their blocks are carried); other messages are sized if they stay.
      // What a replacement history carried says so: a person reading it must not take it for a new prompt.
      const label = !carried ? null : messageRole(role, text, false) === 'prompt' ? 'prompt kept by the compaction' : 'kept by the compaction';
      if (kind !== 'prompt') this.lazy.push({ node, make: () => (label === null ? contentBlocks(item['content']) : contentBlocks(item['content']).map((b) => ({ ...b, label }))) });
    } else if (type === 'reasoning') {
      node.kind = 'assistant';
      this.lazy.push({ node, make: () => reasoningBlocks(item['summary'], item['content'], str(item['encrypted_content'])) });
    } else if (ASSISTANT_ITEMS.has(type)) {
      node.kind = 'assistant';
      this.calls.takeCall(item, node, this.turnCwd ?? this.meta.cwd);
    } else if (OUTPUT_ITEMS.has(type)) {
      node.kind = 'tool-results';
      this.calls.takeOutput(item, node);
    } else if (type === 'compaction' || type === 'compaction_summary') {
      node.kind = 'compact-summary';
      const enc = str(item['encrypted_content']) ?? '';
      const bytes = utf8Bytes(enc);
      node.blocks = [{ index: 0, kind: 'redacted-thinking', bytes, tokens: tokensOf(bytes), preview: `(encrypted compaction summary, ${bytes} bytes)` }];
    } else if (CLIENT_ONLY_ITEMS.has(type)) {
      node.kind = 'other';
      node.subtype = type;
    } else {
      this.stats.unknownTypes[`response_item/${type}`] = (this.stats.unknownTypes[`response_item/${type}`] ?? 0) + 1;
    }
    return node;
  }

  private takeItem(item: JsonObject, line: number, offset: number, length: number, ts: string | undefined): void {
    const node = this.itemNode(item, `L${line}`, line, offset, length, ts, false);
    if (node.kind === 'assistant') this.replies.join(node, this.model);
    this.append(node);
    noteMessage(this.compactions, item, node);
    noteReply(this.compactions, node);
  }

  /**
   * After a compaction, the next request carries the replacement history and what follows it: what
   * precedes is let go (its usage and prompts are kept for cost and history). Without a replacement
   * history, 2026 Codex ignores the compaction (it replays everything), and the 2025 generations
   * rebuilt the history from the prompts so far and the summary.
   */
  private takeCompacted(p: JsonObject, line: number, offset: number, length: number, ts: string | undefined): void {
    const history = p['replacement_history'];
    if (!Array.isArray(history) && this.generation === 'paginated') {
      this.problem('invalid_record', 'info', line, 'a compaction without its replacement history: Codex ignores it and replays the whole history, and so does this view');
      return;
    }
    const carriedPrompts = this.promptBlocks.slice();
    const leafBefore = this.win.lastUuid;
    const where = { uuid: `L${line}`, line, offset, length, leafBefore, ...(ts ? { timestamp: ts } : {}) };
    this.win.prune();
    this.calls.forgetCallsNotIn(this.win.nodes);
    this.lazy = this.lazy.filter((l) => this.win.nodes.has(l.node.uuid));
    this.replies.compacted();
    const boundary = this.newNode(`L${line}`, 'compacted', line, offset, length, ts);
    boundary.kind = 'compact-boundary';
    boundary.parentUuid = null;
    boundary.subtype = 'compacted';
    this.win.lastUuid = null;
    this.append(boundary);
    if (Array.isArray(history)) {
      let summaryIndex: number | null = null;
      history.forEach((entry: Json, i) => {
        if (!isObject(entry)) return;
        const node = this.itemNode(entry, `L${line}.${i}`, line, offset, length, ts, true);
        if (node.kind === 'compact-summary') summaryIndex ??= i;
        this.append(node);
      });
      compactionEvent(this.compactions, p, where, summaryIndex);
      return;
    }
    carriedPrompts.forEach((blocks, i) => {
      const n = this.newNode(`L${line}.${i}`, 'compacted/prompt', line, offset, length, ts);
      n.kind = 'meta';
      n.subtype = 'replacement history';
      n.blocks = blocks.map((b) => ({ ...b }));
      this.append(n);
    });
    const summary = this.newNode(`L${line}.summary`, 'compacted/message', line, offset, length, ts);
    summary.kind = 'compact-summary';
    summary.blocks = [{ index: 0, kind: 'text', bytes: utf8Bytes(str(p['message']) ?? ''), tokens: tokensOf(utf8Bytes(str(p['message']) ?? '')), preview: preview(str(p['message']) ?? '') }];
    this.append(summary);
    compactionEvent(this.compactions, p, where, null);
  }
}

function parseLine(text: string): JsonObject | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}
