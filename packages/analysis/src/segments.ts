import {
  estimateTokensFromBytes,
  type Block,
  type ChainNode,
  type Segment,
  type SegmentKind,
  type Session,
  type Source,
  type ToolOp,
} from '@glassbox/core';
import type { ResidentWindow } from './resident';

/** Kinds of record whose content is sent to the model. */
export const SENT_KINDS: ReadonlySet<string> = new Set(['prompt', 'tool-results', 'meta', 'assistant', 'attachment', 'compact-summary']);

/**
 * One segment per resident content block, with its source. Segments come out in conversation
 * order; `exchange` numbers the API responses so that a protected tail can be cut by exchanges.
 * Where the request's model takes reminders inside tool results, an attachment that follows a tool
 * result becomes a part of that result's segment instead of a segment of its own.
 */
export function buildSegments(session: Session, window: ResidentWindow): { segments: Segment[]; exchanges: number[] } {
  const segments: Segment[] = [];
  const exchanges: number[] = [];
  let turn = -1;
  let exchange = 0;
  let lastMessageId: string | undefined;
  let carrier: Segment | null = null;
  for (const node of window.nodes) {
    if (node.kind === 'prompt') turn++;
    if (node.kind === 'assistant') {
      const id = node.messageId ?? node.uuid;
      if (id !== lastMessageId) {
        exchange++;
        lastMessageId = id;
      }
    }
    // A reminder joins the last result of the user message it follows; any other message ends that.
    if (node.kind !== 'attachment' && node.kind !== 'system' && node.kind !== 'progress') carrier = null;
    if (!SENT_KINDS.has(node.kind)) continue;
    for (const block of node.blocks) {
      if (window.excludedBlocks.has(`${node.uuid}:${block.index}`)) continue;
      const joined = window.joinedReminderOverhead;
      if (node.kind === 'attachment' && carrier && joined !== null && !block.wrappedAsSent) {
        if (block.bytes > 0) addPart(carrier, node, block, joined, session.bytesPerToken);
        continue;
      }
      const seg = segmentFor(session, node, block, Math.max(turn, 0));
      if (!seg) continue;
      // On a model that takes reminders in the user message, each one gains its wrapper there.
      if (node.kind === 'attachment' && joined !== null && !block.wrappedAsSent) {
        seg.bytes += joined - JOIN_SEPARATOR_BYTES;
        seg.tokens = estimateTokensFromBytes(seg.bytes, session.bytesPerToken);
      }
      segments.push(seg);
      exchanges.push(exchange);
      if (seg.kind === 'tool-result') carrier = seg;
    }
  }
  return { segments, exchanges };
}

/** The blank line that joins a reminder to a tool result's text (part of the joined overhead). */
const JOIN_SEPARATOR_BYTES = 2;

/** A reminder the client appends to a tool result: counted in that result's segment, apart from its payload. */
function addPart(carrier: Segment, node: ChainNode, block: Block, overhead: number, bytesPerToken: number): void {
  const bytes = block.bytes + overhead;
  const tokens = estimateTokensFromBytes(bytes, bytesPerToken);
  const part = { kind: 'reminder' as const, label: block.label ?? node.subtype ?? 'reminder', uuid: node.uuid, line: node.line, bytes, tokens, preview: block.preview };
  (carrier.parts ??= []).push(part);
  carrier.tokens += tokens;
}

function segmentFor(session: Session, node: ChainNode, block: Block, turn: number): Segment | null {
  if (block.tokens === 0 && block.bytes === 0) return null;
  let kind: SegmentKind;
  let source: Source;
  let toolUseId: string | undefined;
  let toolName: string | undefined;
  let opKind: ToolOp['kind'] | undefined;
  let evictableTokens = 0;
  switch (block.kind) {
    case 'tool-result': {
      kind = 'tool-result';
      toolUseId = block.toolUseId;
      const call = toolUseId ? session.toolCalls.get(toolUseId) : undefined;
      toolName = call?.name ?? block.toolName;
      opKind = call?.op.kind;
      source = call?.source ?? { type: 'tool', label: toolName ?? 'tool result' };
      evictableTokens = block.tokens;
      break;
    }
    case 'tool-use': {
      kind = 'tool-input';
      toolUseId = block.toolUseId;
      const call = toolUseId ? session.toolCalls.get(toolUseId) : undefined;
      toolName = call?.name ?? block.toolName;
      opKind = call?.op.kind;
      source = call?.source ?? { type: 'tool', label: toolName ?? 'tool call' };
      if (call?.op.kind === 'write') evictableTokens = estimateTokensFromBytes(call.op.contentBytes, session.bytesPerToken);
      else if (call?.op.kind === 'edit') evictableTokens = estimateTokensFromBytes(call.op.heavyBytes, session.bytesPerToken);
      break;
    }
    case 'thinking':
    case 'redacted-thinking':
      kind = 'thinking';
      source = { type: 'thinking', label: 'thinking' };
      break;
    case 'image':
    case 'document':
      kind = 'image';
      source = nodeSource(node);
      break;
    default:
      ({ kind, source } = textKind(node, block));
  }
  const seg: Segment = {
    id: `${node.uuid}:${block.index}`,
    kind,
    source,
    tokens: block.tokens,
    evictableTokens,
    bytes: block.bytes,
    class: 'live',
    uuid: node.uuid,
    line: node.line,
    blockIndex: block.index,
    blockKind: block.kind,
    nodeKind: node.kind,
    turn,
    protected: false,
    preview: block.preview,
  };
  if (toolUseId) seg.toolUseId = toolUseId;
  if (toolName) seg.toolName = toolName;
  if (opKind) seg.opKind = opKind;
  if (node.timestamp) seg.timestamp = node.timestamp;
  if (block.isError) seg.isError = true;
  if (block.hash) seg.hash = block.hash;
  return seg;
}

function textKind(node: ChainNode, block: Block): { kind: SegmentKind; source: Source } {
  switch (node.kind) {
    case 'prompt':
      return { kind: 'prompt', source: { type: 'prompt', label: 'prompt' } };
    case 'assistant':
      return { kind: 'assistant-text', source: { type: 'assistant', label: 'assistant text' } };
    case 'compact-summary':
      return { kind: 'compact-summary', source: { type: 'summary', label: 'compaction summary' } };
    case 'attachment':
      return { kind: 'attachment', source: nodeSource(node, block) };
    default:
      return { kind: 'meta', source: { type: 'meta', label: block.label ?? 'harness text' } };
  }
}

function nodeSource(node: ChainNode, block?: Block): Source {
  if (node.kind === 'attachment') return { type: 'attachment', label: block?.label ?? node.subtype ?? 'attachment' };
  if (node.kind === 'prompt') return { type: 'prompt', label: 'prompt' };
  return { type: 'meta', label: node.subtype ?? 'harness text' };
}
