import {
  IMAGE_TOKENS,
  estimateTokensFromBytes,
  isObject,
  tombstoneHash,
  type Block,
  type ChainNode,
  type Json,
  type NodeKind,
  type Session,
  type ToolCall,
  type Usage,
} from '@glassbox/core';
import type { RequestEnvironment } from './environment';
import type { ReadRequest, RequestBlock, RequestMessage } from './request';
import { opFromInput, refineRead, sha256, utf8Bytes } from './tools';

/**
 * A request's messages as the neutral model (docs/proxy.md): one chain node per message (`m<i>`, its
 * block indexes those of the content array), a tool call per tool_use paired with its tool_result, so
 * that analysis applies to a request exactly the rules and proofs it applies to a transcript. Segment
 * ids are `m<i>:<j>`: message i, block j of the request.
 */

/** The tokenizer is the provider's; this is the divisor fitted on Claude Code's real usage (docs/proxy.md). */
export const ANTHROPIC_BYTES_PER_TOKEN = 3.0;
/** Payloads smaller than this can never pay for a tombstone, so they are not hashed. */
const HASH_MIN_BYTES = 128;
const PREVIEW_CHARS = 160;

/** A reply the provider gave, as the proxy saw it stream by. */
export interface KnownReply {
  usage: Usage;
  at: Date;
  model: string | null;
}

export interface RequestSessionOptions {
  /** Names the conversation in the model and in messages. */
  conversationId: string;
  environment: RequestEnvironment;
  /**
   * Replies the proxy saw, by the index of the assistant message that repeats them: their usage is the
   * provider's figure for the window at that request (the last one's is the window's size, the first
   * one's measures the system prompt and tools), their time the cache's clock.
   */
  replies?: ReadonlyMap<number, KnownReply>;
}

export type RequestSessionResult = { ok: true; session: Session } | { ok: false; reason: string };

export const nodeId = (messageIndex: number): string => `m${messageIndex}`;

/** Message and block of a segment id `m<i>:<j>`. */
export function segmentPlace(segmentId: string): { message: number; block: number } | null {
  const m = /^m(\d+):(\d+)$/.exec(segmentId);
  return m ? { message: Number(m[1]), block: Number(m[2]) } : null;
}

function preview(text: string): string {
  const t = text.length > PREVIEW_CHARS * 2 ? text.slice(0, PREVIEW_CHARS * 2) : text;
  const one = t.replace(/\s+/g, ' ').trim();
  return one.length > PREVIEW_CHARS ? one.slice(0, PREVIEW_CHARS - 1) + '…' : one;
}

const tokens = (bytes: number): number => estimateTokensFromBytes(bytes, ANTHROPIC_BYTES_PER_TOKEN);

/** The text of a tool_result's content as the model reads it, and the bytes it costs. */
export function resultText(content: Json | undefined): { text: string | null; bytes: number; images: number } {
  if (typeof content === 'string') return { text: content, bytes: utf8Bytes(content), images: 0 };
  if (!Array.isArray(content)) return { text: null, bytes: 0, images: 0 };
  const parts: string[] = [];
  let bytes = 0;
  let images = 0;
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part['type'] === 'text' && typeof part['text'] === 'string') {
      parts.push(part['text']);
      bytes += utf8Bytes(part['text']);
    } else if (part['type'] === 'image' || part['type'] === 'document') images++;
    else bytes += utf8Bytes(JSON.stringify(part));
  }
  return { text: parts.join('\n'), bytes, images };
}

export function requestSession(request: ReadRequest, options: RequestSessionOptions): RequestSessionResult {
  const cwd = options.environment.cwd;
  const nodes = new Map<string, ChainNode>();
  const order: string[] = [];
  const toolCalls = new Map<string, ToolCall>();
  const inputs = new Map<string, { name: string; input: Record<string, Json> }>();
  let previous: string | null = null;
  for (const message of request.messages) {
    const node = nodeFor(message, previous);
    for (const block of message.blocks) {
      if (block.type === 'tool_use') {
        const id = typeof block.value['id'] === 'string' ? block.value['id'] : '';
        const name = typeof block.value['name'] === 'string' ? block.value['name'] : 'tool';
        const input = isObject(block.value['input']) ? block.value['input'] : {};
        if (!id || toolCalls.has(id)) return { ok: false, reason: `message ${message.index}: a tool_use without a unique id` };
        const { op, source } = opFromInput(name, input, cwd);
        toolCalls.set(id, { id, name, useUuid: node.uuid, useLine: node.line, isError: false, op, source });
        inputs.set(id, { name, input });
      } else if (block.type === 'tool_result') {
        const id = typeof block.value['tool_use_id'] === 'string' ? block.value['tool_use_id'] : '';
        const call = toolCalls.get(id);
        if (!call || call.resultUuid !== undefined) return { ok: false, reason: `message ${message.index}: a tool_result that answers no earlier tool_use` };
        call.resultUuid = node.uuid;
        call.resultLine = node.line;
        call.isError = block.value['is_error'] === true;
        const text = resultText(block.value['content']).text;
        const asked = inputs.get(id);
        if (call.op.kind === 'read' && !call.isError && text !== null && asked) {
          call.op = refineRead(call.op, asked.input, text, options.environment.readDefaultLines);
        }
      }
    }
    for (const b of node.blocks) {
      const name = b.toolUseId ? toolCalls.get(b.toolUseId)?.name : undefined;
      if (name) b.toolName = name;
    }
    nodes.set(node.uuid, node);
    order.push(node.uuid);
    previous = node.uuid;
    const reply = node.kind === 'assistant' ? options.replies?.get(message.index) : undefined;
    if (reply) {
      node.usage = reply.usage;
      node.timestamp = reply.at.toISOString();
      if (reply.model) node.model = reply.model;
    }
  }
  for (const call of toolCalls.values()) {
    // Only a request's own last message (an assistant prefill) may hold calls not yet answered.
    if (call.resultUuid === undefined && call.useUuid !== previous) return { ok: false, reason: `the tool_use ${call.id} is never answered` };
  }
  const session: Session = {
    agent: 'claude-code',
    id: options.conversationId,
    path: `request:${options.conversationId}`,
    cwd,
    version: null,
    gitBranch: null,
    title: null,
    firstPrompt: null,
    firstTimestamp: null,
    lastTimestamp: null,
    nodes,
    order,
    leafUuid: previous,
    toolCalls,
    subagents: [],
    problems: [],
    stats: { lines: request.messages.length, bytes: request.bytes.length, records: request.messages.length, byType: {}, unknownTypes: {}, mirrorBytes: 0, invalidLines: 0 },
    parentFallbackMs: 0,
    bytesPerToken: ANTHROPIC_BYTES_PER_TOKEN,
    prunedUsage: [],
    prunedRecords: 0,
  };
  return { ok: true, session };
}

function nodeFor(message: RequestMessage, parent: string | null): ChainNode {
  const uuid = nodeId(message.index);
  let kind: NodeKind;
  if (message.role === 'assistant') kind = 'assistant';
  else if (message.role === 'system') kind = 'attachment';
  else kind = message.blocks.some((b) => b.type === 'tool_result') ? 'tool-results' : 'prompt';
  const node: ChainNode = {
    uuid,
    parentUuid: parent,
    kind,
    rawType: message.role,
    line: message.index + 1,
    offset: message.span.start,
    length: message.span.end - message.span.start,
    isSidechain: false,
    blocks: message.text !== null ? [textBlock(0, message.text)] : message.blocks.map(blockOf),
    mirrorBytes: 0,
  };
  if (kind === 'assistant') node.messageId = uuid;
  if (kind === 'attachment') node.subtype = 'system message';
  return node;
}

function textBlock(index: number, text: string): Block {
  const bytes = utf8Bytes(text);
  return { index, kind: 'text', bytes, tokens: tokens(bytes), preview: preview(text) };
}

function blockOf(block: RequestBlock): Block {
  const v = block.value;
  switch (block.type) {
    case 'text':
      return textBlock(block.index, typeof v['text'] === 'string' ? v['text'] : '');
    case 'thinking':
    case 'redacted_thinking': {
      const text = typeof v['thinking'] === 'string' ? v['thinking'] : typeof v['data'] === 'string' ? v['data'] : '';
      const b = utf8Bytes(text);
      return { index: block.index, kind: block.type === 'thinking' ? 'thinking' : 'redacted-thinking', bytes: b, tokens: tokens(b), preview: preview(text) };
    }
    case 'image':
    case 'document':
      return { index: block.index, kind: block.type === 'image' ? 'image' : 'document', bytes: 0, tokens: IMAGE_TOKENS, preview: `(${block.type})` };
    case 'tool_use':
      return toolUseBlock(block);
    case 'tool_result':
      return toolResultBlock(block);
    default: {
      const b = block.span.end - block.span.start;
      return { index: block.index, kind: 'other', bytes: b, tokens: tokens(b), preview: block.type };
    }
  }
}

function toolUseBlock(block: RequestBlock): Block {
  const v = block.value;
  const name = typeof v['name'] === 'string' ? v['name'] : 'tool';
  const inputSpan = block.members.get('input');
  const size = (inputSpan ? inputSpan.end - inputSpan.start : 2) + utf8Bytes(name);
  const out: Block = { index: block.index, kind: 'tool-use', bytes: size, tokens: tokens(size), preview: preview(name), toolName: name };
  if (typeof v['id'] === 'string') out.toolUseId = v['id'];
  const input = v['input'];
  if (isObject(input)) {
    if (name === 'Write' && typeof input['content'] === 'string' && utf8Bytes(input['content']) >= HASH_MIN_BYTES) out.hash = sha256(input['content']);
    for (const value of Object.values(input)) {
      const t = typeof value === 'string' ? tombstoneHash(value) : null;
      if (t !== null) out.tombstone = t;
    }
  }
  return out;
}

function toolResultBlock(block: RequestBlock): Block {
  const v = block.value;
  const content = v['content'];
  const { text, bytes: textBytes, images } = resultText(content);
  const out: Block = {
    index: block.index,
    kind: 'tool-result',
    bytes: textBytes,
    tokens: tokens(textBytes) + images * IMAGE_TOKENS,
    preview: preview(text ?? ''),
  };
  if (typeof v['tool_use_id'] === 'string') out.toolUseId = v['tool_use_id'];
  if (v['is_error'] === true) out.isError = true;
  if (textBytes >= HASH_MIN_BYTES && content !== undefined) out.hash = sha256(typeof content === 'string' ? content : JSON.stringify(content));
  const tomb = text === null ? null : tombstoneHash(text);
  if (tomb !== null) out.tombstone = tomb;
  return out;
}
