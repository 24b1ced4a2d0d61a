import {
  IMAGE_TOKENS,
  estimateTokensFromBytes,
  tombstoneHash,
  type Block,
  type BlockKind,
  type ChainNode,
  type NodeKind,
  type Problem,
  type ReadOp,
  type Session,
  type SessionStats,
  type SubagentRef,
  type ToolCall,
  type Usage,
  type UsageRecord,
} from '@glassbox/core';
import { sha256, utf8Bytes } from './hash';
import { KNOWN_RECORD_TYPES, isObject, num, str, type Json, type JsonObject } from './record-types';
import { opFromInput, refineRead } from './tool-ops';
import { chooseLeaf } from './leaf';
import { inlineSidechainWindows } from './sidechains';
import { displayPrompt, userRecordKind } from './user-text';

/** Payloads smaller than this can never pay for a tombstone, so they are not hashed for deduplication. */
const HASH_MIN_BYTES = 128;
const PREVIEW_CHARS = 160;
/** Claude Code re-links a missing parent to a record written at most this long before (FORMAT.md A3.3). */
const PARENT_FALLBACK_MS = 5000;

export interface ParserOptions {
  /** The file being parsed, for problem messages and the session path. */
  path: string;
  /** The session id from the file name, used when no record names one. */
  fallbackId?: string;
  /** Keep the text reads captured in memory (for callers that have no file to read it back from). */
  keepCapturedText?: boolean;
}

/** A parser that takes a transcript one line at a time: it never needs the file as one string. */
export class TranscriptParser {
  private readonly path: string;
  private readonly fallbackId: string;
  private readonly nodes = new Map<string, ChainNode>();
  private readonly order: string[] = [];
  private readonly toolCalls = new Map<string, ToolCall>();
  private readonly problems: Problem[] = [];
  private readonly stats: SessionStats = {
    lines: 0,
    bytes: 0,
    records: 0,
    byType: {},
    unknownTypes: {},
    mirrorBytes: 0,
    invalidLines: 0,
  };
  private recognised = 0;
  private sessionId: string | null = null;
  private cwd: string | null = null;
  private version: string | null = null;
  private gitBranch: string | null = null;
  private aiTitle: string | null = null;
  private customTitle: string | null = null;
  private summaryTitle: string | null = null;
  private firstPrompt: string | null = null;
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private lastPromptLeaf: string | null = null;
  private lastPromptLine = 0;
  private agentId: string | undefined;
  private readonly subagentHints = new Map<string, { toolUseId: string; agentType?: string; description?: string }>();
  private lastInvalid: { line: number; message: string } | null = null;
  private pendingPrune: ChainNode | null = null;
  private readonly prunedUsage: UsageRecord[] = [];
  private prunedRecords = 0;
  private readonly pendingResults = new Map<
    string,
    { block: Block; node: ChainNode; mirror: Json | undefined; text: string | null }
  >();

  private readonly keepCapturedText: boolean;

  constructor(options: ParserOptions) {
    this.path = options.path;
    this.keepCapturedText = options.keepCapturedText === true;
    this.fallbackId = options.fallbackId ?? '';
  }

  /** Feeds one line (without its newline). `offset` is the byte offset of the line in the file. */
  push(text: string, line: number, offset: number, byteLength: number): void {
    this.stats.lines = line;
    this.stats.bytes = offset + byteLength;
    if (text.length === 0 || /^\s*$/.test(text)) return;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      this.invalidLine(line, (error as Error).message);
      return;
    }
    if (!isObject(record)) {
      this.invalidLine(line, 'the line is JSON but not an object');
      return;
    }
    this.lastInvalid = null;
    this.stats.records++;
    try {
      this.take(record, line, offset, byteLength);
    } catch (error) {
      // A record of a shape no version we know writes: report it and keep reading, never abort.
      this.problems.push({
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
    if (this.lastInvalid && !endsWithNewline && this.lastInvalid.line === this.stats.lines) {
      const p = this.problems.find((q) => q.code === 'invalid_json' && q.line === this.lastInvalid?.line);
      if (p) {
        p.code = 'torn_last_line';
        p.severity = 'warning';
        p.message = `${this.path}:${p.line}: the last line is incomplete (the session may still be writing); it was skipped`;
      }
    }
    if (this.stats.lines === 0 || (this.stats.records === 0 && this.stats.invalidLines === 0)) {
      this.problems.push({
        code: 'file_empty',
        severity: 'error',
        file: this.path,
        message: `${this.path}: the file is empty; there is no session to read`,
      });
    } else if (this.recognised === 0) {
      this.stats.unknownTypes = {};
      this.problems.push({
        code: 'not_a_transcript',
        severity: 'error',
        file: this.path,
        line: 1,
        message: `${this.path}: this is not a Claude Code transcript (no line holds a user, assistant or session record)`,
      });
    }
    this.reportUnknownTypes();
    for (const [toolUseId, pending] of this.pendingResults) {
      if (pending.node.isSidechain) continue;
      this.problems.push({
        code: 'orphan_tool_result',
        severity: 'info',
        file: this.path,
        line: pending.node.line,
        message: `${this.path}:${pending.node.line}: a tool result answers ${toolUseId || 'no tool call'}, which no record in the file made`,
      });
    }
    this.pendingResults.clear();
    const leafUuid = chooseLeaf(this.nodes, this.order, this.lastPromptLeaf, this.lastPromptLine);
    const subagents: SubagentRef[] = [];
    const session: Session = {
      agent: 'claude-code',
      id: this.sessionId ?? this.fallbackId,
      path: this.path,
      cwd: this.cwd,
      version: this.version,
      gitBranch: this.gitBranch,
      title: this.customTitle ?? this.aiTitle ?? this.summaryTitle ?? null,
      firstPrompt: this.firstPrompt,
      firstTimestamp: this.firstTimestamp,
      lastTimestamp: this.lastTimestamp,
      nodes: this.nodes,
      order: this.order,
      leafUuid,
      toolCalls: this.toolCalls,
      subagents,
      problems: this.problems,
      stats: this.stats,
      parentFallbackMs: PARENT_FALLBACK_MS,
      prunedUsage: this.prunedUsage,
      prunedRecords: this.prunedRecords,
    };
    if (this.agentId !== undefined) session.agentId = this.agentId;
    session.inlineSubagents = inlineSidechainWindows(session);
    return session;
  }

  /** Agent tool calls seen so far, by the agent id their result names: used to link subagent files. */
  subagentLinks(): ReadonlyMap<string, { toolUseId: string; agentType?: string; description?: string }> {
    return this.subagentHints;
  }

  private invalidLine(line: number, reason: string): void {
    this.stats.invalidLines++;
    this.lastInvalid = { line, message: reason };
    this.problems.push({
      code: 'invalid_json',
      severity: 'warning',
      file: this.path,
      line,
      message: `${this.path}:${line}: invalid JSON (${reason}); the line was skipped`,
    });
  }

  private reportUnknownTypes(): void {
    for (const [type, count] of Object.entries(this.stats.unknownTypes)) {
      this.problems.push({
        code: 'unknown_record_type',
        severity: 'info',
        file: this.path,
        message: `${this.path}: ${count} record(s) of unknown type "${type}" were kept and not analysed`,
      });
    }
  }

  private take(r: JsonObject, line: number, offset: number, length: number): void {
    const type = str(r['type']) ?? '(none)';
    this.stats.byType[type] = (this.stats.byType[type] ?? 0) + 1;
    if (KNOWN_RECORD_TYPES.has(type)) this.recognised++;
    else this.stats.unknownTypes[type] = (this.stats.unknownTypes[type] ?? 0) + 1;

    const sid = str(r['sessionId']);
    if (sid && this.sessionId === null) this.sessionId = sid;
    const ts = str(r['timestamp']);
    if (ts) {
      if (this.firstTimestamp === null) this.firstTimestamp = ts;
      this.lastTimestamp = ts;
    }

    switch (type) {
      case 'last-prompt': {
        const leaf = str(r['leafUuid']);
        if (leaf) {
          this.lastPromptLeaf = leaf;
          this.lastPromptLine = line;
        }
        return;
      }
      case 'ai-title':
        this.aiTitle = str(r['aiTitle']) ?? this.aiTitle;
        return;
      case 'custom-title':
        this.customTitle = str(r['customTitle']) ?? str(r['title']) ?? this.customTitle;
        return;
      case 'summary':
        this.summaryTitle = str(r['summary']) ?? this.summaryTitle;
        return;
      default:
        break;
    }

    const uuid = str(r['uuid']);
    if (!uuid || !('parentUuid' in r)) return;
    if (this.cwd === null) this.cwd = str(r['cwd']) ?? null;
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

    switch (type) {
      case 'user':
        this.takeUser(r, node);
        break;
      case 'assistant':
        this.takeAssistant(r, node);
        break;
      case 'attachment':
        this.takeAttachment(r, node);
        break;
      case 'system':
        this.takeSystem(r, node);
        break;
      case 'progress':
        node.kind = 'progress';
        break;
      default:
        node.kind = 'other';
    }
    if (this.nodes.has(uuid)) {
      // A record written twice (a resumed copy): the later line wins, as in the client's uuid map.
      const i = this.order.indexOf(uuid);
      if (i >= 0) this.order.splice(i, 1);
    }
    this.nodes.set(uuid, node);
    this.order.push(uuid);
    if (this.pendingPrune === node) {
      this.pendingPrune = null;
      if (!node.isSidechain) this.pruneBefore(node);
    }
  }

  private takeUser(r: JsonObject, node: ChainNode): void {
    const message = r['message'];
    const content = isObject(message) ? message['content'] : undefined;
    const { kind, promptText } = userRecordKind(r);
    node.kind = kind;
    if (kind === 'prompt' && promptText !== null) this.notePrompt(node, promptText);

    if (typeof content === 'string') {
      node.blocks.push(textBlock(0, 'text', content));
      return;
    }
    if (!Array.isArray(content)) return;
    const mirror = r['toolUseResult'];
    if (mirror !== undefined) {
      const bytes = jsonBytes(mirror);
      node.mirrorBytes = bytes;
      this.stats.mirrorBytes += bytes;
    }
    content.forEach((block, index) => {
      if (!isObject(block)) return;
      const btype = str(block['type']);
      if (btype === 'tool_result') {
        node.blocks.push(this.takeToolResult(block, index, node, mirror));
      } else if (btype === 'text') {
        node.blocks.push(textBlock(index, 'text', str(block['text']) ?? ''));
      } else if (btype === 'image' || btype === 'document') {
        node.blocks.push(imageBlock(index, btype));
      } else {
        node.blocks.push(otherBlock(index, block));
      }
    });
  }

  private notePrompt(node: ChainNode, text: string): void {
    // A copy, not a slice: a slice would keep the whole prompt string alive.
    const shown = displayPrompt(text).slice(0, 400).split('').join('');
    node.promptText = shown;
    if (this.firstPrompt === null && !node.isSidechain) this.firstPrompt = shown;
  }

  private takeToolResult(block: JsonObject, index: number, node: ChainNode, mirror: Json | undefined): Block {
    const toolUseId = str(block['tool_use_id']) ?? '';
    const isError = block['is_error'] === true;
    const raw = block['content'];
    let text: string | null = null;
    let bytes = 0;
    let tokens = 0;
    let hashInput: string | null = null;
    if (typeof raw === 'string') {
      text = raw;
      bytes = utf8Bytes(raw);
      tokens = estimateTokensFromBytes(bytes);
      hashInput = raw;
    } else if (Array.isArray(raw)) {
      const parts: string[] = [];
      for (const part of raw) {
        if (!isObject(part)) continue;
        if (part['type'] === 'text') {
          const t = str(part['text']) ?? '';
          parts.push(t);
          const b = utf8Bytes(t);
          bytes += b;
          tokens += estimateTokensFromBytes(b);
        } else if (part['type'] === 'image' || part['type'] === 'document') {
          tokens += IMAGE_TOKENS;
          bytes += jsonBytes(part);
        } else {
          const b = jsonBytes(part);
          bytes += b;
          tokens += estimateTokensFromBytes(b);
        }
      }
      text = parts.join('\n');
      hashInput = JSON.stringify(raw);
    }
    const out: Block = {
      index,
      kind: 'tool-result',
      bytes,
      tokens,
      preview: preview(text ?? ''),
      toolUseId,
    };
    if (isError) out.isError = true;
    if (hashInput !== null && bytes >= HASH_MIN_BYTES) out.hash = sha256(hashInput);
    const tombstone = text === null ? null : tombstoneHash(text);
    if (tombstone !== null) out.tombstone = tombstone;

    const call = this.toolCalls.get(toolUseId);
    if (call) this.linkResult(call, out, node, mirror, text);
    // Results can be written before their call (the TUI rewrites files out of order): link at the call.
    else this.pendingResults.set(toolUseId, { block: out, node, mirror, text });
    return out;
  }

  private linkResult(call: ToolCall, out: Block, node: ChainNode, mirror: Json | undefined, text: string | null): void {
    out.toolName = call.name;
    call.resultUuid = node.uuid;
    call.resultLine = node.line;
    call.isError = out.isError === true || typeof mirror === 'string';
    if (call.op.kind === 'read' && !call.isError) call.op = refineRead(call.op, mirror, text, this.keepCapturedText);
    if (call.op.kind === 'subagent' && isObject(mirror)) {
      const agentId = str(mirror['agentId']);
      if (agentId) {
        call.op = { ...call.op, agentId };
        const hint: { toolUseId: string; agentType?: string; description?: string } = { toolUseId: call.id };
        const agentType = str(mirror['agentType']);
        if (agentType) hint.agentType = agentType;
        hint.description = call.op.description;
        this.subagentHints.set(agentId, hint);
      }
    }
  }

  private takeAssistant(r: JsonObject, node: ChainNode): void {
    node.kind = 'assistant';
    const message = r['message'];
    if (!isObject(message)) return;
    const id = str(message['id']);
    if (id) node.messageId = id;
    const requestId = str(r['requestId']);
    if (requestId) node.requestId = requestId;
    const model = str(message['model']);
    if (model) node.model = model;
    const usage = parseUsage(message['usage']);
    if (usage) node.usage = usage;
    const content = message['content'];
    if (typeof content === 'string') {
      node.blocks.push(textBlock(0, 'text', content));
      return;
    }
    if (!Array.isArray(content)) return;
    content.forEach((block, index) => {
      if (!isObject(block)) return;
      switch (block['type']) {
        case 'text':
          node.blocks.push(textBlock(index, 'text', str(block['text']) ?? ''));
          break;
        case 'thinking':
          node.blocks.push(textBlock(index, 'thinking', str(block['thinking']) ?? ''));
          break;
        case 'redacted_thinking':
          node.blocks.push({ ...textBlock(index, 'redacted-thinking', str(block['data']) ?? ''), preview: '(redacted thinking)' });
          break;
        case 'tool_use':
        case 'server_tool_use':
          node.blocks.push(this.takeToolUse(block, index, node));
          break;
        default:
          node.blocks.push(otherBlock(index, block));
      }
    });
  }

  private takeToolUse(block: JsonObject, index: number, node: ChainNode): Block {
    const id = str(block['id']) ?? `${node.uuid}:${index}`;
    const name = str(block['name']) ?? 'tool';
    const input = isObject(block['input']) ? block['input'] : {};
    const { op, source } = opFromInput(name, input, this.cwd);
    const bytes = jsonBytes(input) + utf8Bytes(name);
    const call: ToolCall = { id, name, useUuid: node.uuid, useLine: node.line, isError: false, op, source };
    this.toolCalls.set(id, call);
    const pending = this.pendingResults.get(id);
    if (pending) {
      this.pendingResults.delete(id);
      this.linkResult(call, pending.block, pending.node, pending.mirror, pending.text);
    }
    const out: Block = {
      index,
      kind: 'tool-use',
      bytes,
      tokens: estimateTokensFromBytes(bytes),
      preview: preview(`${name} ${source.label}`),
      toolUseId: id,
      toolName: name,
    };
    if (op.kind === 'write' && op.contentBytes >= HASH_MIN_BYTES) out.hash = op.contentHash;
    const tombstone = tombstoneInInput(input);
    if (tombstone !== null) out.tombstone = tombstone;
    return out;
  }

  private takeAttachment(r: JsonObject, node: ChainNode): void {
    node.kind = 'attachment';
    const att = r['attachment'];
    if (!isObject(att)) return;
    node.subtype = str(att['type']) ?? 'attachment';
    // Attachments reach the model as system text; their JSON size is a fair stand-in for it.
    const bytes = jsonBytes(att);
    const label = str(att['filename']) ?? node.subtype;
    node.blocks.push({
      index: 0,
      kind: 'text',
      bytes,
      tokens: estimateTokensFromBytes(bytes),
      preview: preview(`${node.subtype}: ${label}`),
    });
  }

  /**
   * What precedes a compaction is no longer sent, so the captured text of earlier reads is let go:
   * memory then follows the resident window, not the file. Preserved messages keep theirs.
   */
  /**
   * A main-thread compaction boundary starts a new root: what precedes it is never resumed again,
   * except the messages it preserves. Those earlier records are let go (keeping their usage, and
   * the prompts and boundaries that the history needs), so memory follows the window.
   */
  private pruneBefore(boundary: ChainNode): void {
    const keep = new Set(boundary.preservedUuids ?? []);
    const kept: string[] = [];
    for (const uuid of this.order) {
      const n = this.nodes.get(uuid);
      if (!n) continue;
      if (n.isSidechain || keep.has(uuid) || n.kind === 'prompt' || n.kind === 'compact-boundary') {
        kept.push(uuid);
        continue;
      }
      if (n.kind === 'assistant' && n.usage) {
        const u: UsageRecord = { messageId: n.messageId ?? n.uuid, model: n.model ?? 'unknown', line: n.line, usage: n.usage, isSidechain: false };
        if (n.requestId) u.requestId = n.requestId;
        if (n.timestamp) u.timestamp = n.timestamp;
        this.prunedUsage.push(u);
      }
      this.nodes.delete(uuid);
      this.prunedRecords++;
    }
    this.order.length = 0;
    this.order.push(...kept);
    for (const [id, call] of this.toolCalls) {
      const used = this.nodes.has(call.useUuid);
      const answered = call.resultUuid !== undefined && this.nodes.has(call.resultUuid);
      if (!used && !answered) this.toolCalls.delete(id);
    }
  }

  private dropCapturedTextBefore(r: JsonObject): void {
    const meta = r['compactMetadata'];
    const keep = new Set<string>();
    if (isObject(meta) && isObject(meta['preservedMessages'])) {
      const all = meta['preservedMessages']['allUuids'] ?? meta['preservedMessages']['uuids'];
      if (Array.isArray(all)) for (const u of all) if (typeof u === 'string') keep.add(u);
    }
    for (const call of this.toolCalls.values()) {
      if (call.op.kind !== 'read' || call.op.capturedText === undefined) continue;
      if (keep.has(call.useUuid) || (call.resultUuid !== undefined && keep.has(call.resultUuid))) continue;
      const { capturedText: _dropped, ...rest } = call.op;
      call.op = rest;
    }
  }

  private takeSystem(r: JsonObject, node: ChainNode): void {
    const subtype = str(r['subtype']) ?? 'system';
    node.subtype = subtype;
    if (subtype === 'compact_boundary') {
      node.kind = 'compact-boundary';
      // Captured text is only held when asked for; otherwise there is nothing to let go.
      if (this.keepCapturedText) this.dropCapturedTextBefore(r);
      this.pendingPrune = node;
      const meta = r['compactMetadata'];
      if (isObject(meta)) {
        const seg = meta['preservedSegment'];
        const msgs = meta['preservedMessages'];
        const uuids = isObject(msgs) && Array.isArray(msgs['uuids']) ? msgs['uuids'] : undefined;
        if (uuids) node.preservedUuids = uuids.filter((u): u is string => typeof u === 'string');
        const anchor = (isObject(seg) ? str(seg['anchorUuid']) : undefined) ?? (isObject(msgs) ? str(msgs['anchorUuid']) : undefined);
        if (anchor) node.preservedAnchorUuid = anchor;
        if (!node.preservedUuids && isObject(seg)) {
          const head = str(seg['headUuid']);
          const tail = str(seg['tailUuid']);
          if (head && tail) node.preservedUuids = head === tail ? [head] : [head, tail];
        }
      }
      return;
    }
    if (subtype === 'microcompact_boundary') {
      node.kind = 'microcompact-boundary';
      const meta = r['microcompactMetadata'];
      if (isObject(meta) && Array.isArray(meta['compactedToolIds'])) {
        node.compactedToolIds = meta['compactedToolIds'].filter((u): u is string => typeof u === 'string');
      }
      return;
    }
    node.kind = 'system';
  }
}

function textBlock(index: number, kind: BlockKind, text: string): Block {
  const bytes = utf8Bytes(text);
  return { index, kind, bytes, tokens: estimateTokensFromBytes(bytes), preview: preview(text) };
}

function imageBlock(index: number, type: string): Block {
  return { index, kind: type === 'image' ? 'image' : 'document', bytes: 0, tokens: IMAGE_TOKENS, preview: `(${type})` };
}

function otherBlock(index: number, block: JsonObject): Block {
  const bytes = jsonBytes(block);
  return { index, kind: 'other', bytes, tokens: estimateTokensFromBytes(bytes), preview: preview(str(block['type']) ?? '') };
}

/** A Glassbox tombstone in a tool input's string fields (a forked Write's content, an Edit's new_string). */
function tombstoneInInput(input: JsonObject): string | null {
  for (const v of Object.values(input)) {
    if (typeof v === 'string') {
      const t = tombstoneHash(v);
      if (t !== null) return t;
    } else if (Array.isArray(v)) {
      for (const e of v) {
        const t = isObject(e) && typeof e['new_string'] === 'string' ? tombstoneHash(e['new_string']) : null;
        if (t !== null) return t;
      }
    }
  }
  return null;
}

function preview(text: string): string {
  const t = text.length > PREVIEW_CHARS * 2 ? text.slice(0, PREVIEW_CHARS * 2) : text;
  const one = t.replace(/\s+/g, ' ').trim();
  return one.length > PREVIEW_CHARS ? one.slice(0, PREVIEW_CHARS - 1) + '…' : one;
}

/** Approximate JSON size of a value without serialising it: string bytes plus structure. */
export function jsonBytes(value: Json | unknown): number {
  if (typeof value === 'string') return utf8Bytes(value) + 2;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  if (value === null || value === undefined) return 4;
  if (Array.isArray(value)) {
    let n = 2;
    for (const v of value) n += jsonBytes(v) + 1;
    return n;
  }
  if (typeof value === 'object') {
    let n = 2;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) n += k.length + 4 + jsonBytes(v);
    return n;
  }
  return 0;
}

export function parseUsage(raw: unknown): Usage | undefined {
  if (!isObject(raw)) return undefined;
  const cache = raw['cache_creation'];
  const u: Usage = {
    inputTokens: num(raw['input_tokens']) ?? 0,
    outputTokens: num(raw['output_tokens']) ?? 0,
    cacheCreationTokens: num(raw['cache_creation_input_tokens']) ?? 0,
    cacheReadTokens: num(raw['cache_read_input_tokens']) ?? 0,
    cacheCreation5mTokens: 0,
    cacheCreation1hTokens: 0,
  };
  if (isObject(cache)) {
    u.cacheCreation5mTokens = num(cache['ephemeral_5m_input_tokens']) ?? 0;
    u.cacheCreation1hTokens = num(cache['ephemeral_1h_input_tokens']) ?? 0;
  } else {
    u.cacheCreation5mTokens = u.cacheCreationTokens;
  }
  return u;
}

export type { NodeKind, ReadOp };
