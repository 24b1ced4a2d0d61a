import { isObject, type Json, type JsonObject } from '@glassbox/core';
import { JsonScanner, JsonSyntaxError, type Span } from './json-spans';

/**
 * One Messages API request (`POST /v1/messages`), read for a rewrite: the parsed body and the byte
 * range of every message and content block. Anything this reader does not know makes it refuse, with
 * a reason: the proxy then sends the client's bytes unchanged (docs/proxy.md, "Fails open").
 */
export interface RequestBlock {
  /** Index in the message's content array. */
  index: number;
  type: string;
  span: Span;
  value: JsonObject;
  /** Byte ranges of the block's own members (`content`, `input`, …). */
  members: ReadonlyMap<string, Span>;
}

export type MessageRole = 'user' | 'assistant' | 'system';

export interface RequestMessage {
  index: number;
  role: MessageRole;
  span: Span;
  contentSpan: Span;
  /** The content when it is a plain string (then `blocks` is empty). */
  text: string | null;
  blocks: RequestBlock[];
}

export interface ReadRequest {
  bytes: Buffer;
  body: JsonObject;
  model: string | null;
  stream: boolean;
  messages: RequestMessage[];
}

export type RequestReading = { ok: true; request: ReadRequest } | { ok: false; reason: string };

/**
 * Top-level fields of the Messages API (and of Claude Code's requests, which use beta ones). A field
 * outside this list may change what the provider does with the messages, so its request is not touched.
 */
const KNOWN_FIELDS = new Set([
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'metadata',
  'max_tokens',
  'stop_sequences',
  'stream',
  'temperature',
  'top_k',
  'top_p',
  'thinking',
  'service_tier',
  'context_management',
  'output_config',
  'output_format',
  'container',
  'mcp_servers',
  'betas',
]);

/** Content block types a message may hold; anything else is not read. */
const KNOWN_BLOCKS = new Set([
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'search_result',
]);

/** Context-management edits that leave the messages as sent; others (server-side clearing) change what is cached. */
const KNOWN_EDITS = new Set(['clear_thinking_20251015']);

const ROLES = new Set<string>(['user', 'assistant', 'system']);

/** A message's own fields; Claude Code 2.1.332 puts a per-turn `output_config` on some (the per-turn-control beta). */
const MESSAGE_FIELDS = new Set(['role', 'content', 'output_config']);

export function readRequest(bytes: Buffer): RequestReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { ok: false, reason: `the body is not JSON (${(error as Error).message})` };
  }
  if (!isObject(parsed)) return { ok: false, reason: 'the body is not a JSON object' };
  try {
    return readParsed(bytes, parsed);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, reason: `the body could not be laid out (${error.message})` };
    throw error;
  }
}

function readParsed(bytes: Buffer, body: JsonObject): RequestReading {
  const scanner = new JsonScanner(bytes);
  const top = scanner.members(scanner.document());
  const seen = new Set<string>();
  let messagesSpan: Span | null = null;
  for (const m of top) {
    if (seen.has(m.key)) return { ok: false, reason: `the field "${m.key}" appears twice` };
    seen.add(m.key);
    if (!KNOWN_FIELDS.has(m.key)) return { ok: false, reason: `unknown field "${m.key}"` };
    if (m.key === 'messages') messagesSpan = m.value;
  }
  const refusal = contextManagementRefusal(body['context_management']);
  if (refusal) return { ok: false, reason: refusal };
  const raw = body['messages'];
  if (!messagesSpan || !Array.isArray(raw)) return { ok: false, reason: 'no "messages" array' };
  const spans = scanner.elements(messagesSpan);
  if (spans.length !== raw.length) return { ok: false, reason: 'the messages could not be laid out' };
  const messages: RequestMessage[] = [];
  for (let i = 0; i < raw.length; i++) {
    const read = readMessage(scanner, spans[i] as Span, raw[i], i);
    if (typeof read === 'string') return { ok: false, reason: `message ${i}: ${read}` };
    messages.push(read);
  }
  const model = typeof body['model'] === 'string' ? body['model'] : null;
  return { ok: true, request: { bytes, body, model, stream: body['stream'] === true, messages } };
}

function contextManagementRefusal(value: Json | undefined): string | null {
  if (value === undefined) return null;
  if (!isObject(value)) return 'context_management is not an object';
  const edits = value['edits'];
  if (edits === undefined) return null;
  if (!Array.isArray(edits)) return 'context_management.edits is not a list';
  for (const e of edits) {
    const type = isObject(e) ? e['type'] : undefined;
    if (typeof type !== 'string' || !KNOWN_EDITS.has(type)) return `context_management edit ${JSON.stringify(type ?? null)} is not known`;
  }
  return null;
}

function readMessage(scanner: JsonScanner, span: Span, value: Json | undefined, index: number): RequestMessage | string {
  if (!isObject(value)) return 'not an object';
  const role = value['role'];
  if (typeof role !== 'string' || !ROLES.has(role)) return `unknown role ${JSON.stringify(role ?? null)}`;
  const members = memberMap(scanner, span);
  if (typeof members === 'string') return members;
  for (const key of members.keys()) if (!MESSAGE_FIELDS.has(key)) return `unknown field "${key}"`;
  const contentSpan = members.get('content');
  const content = value['content'];
  if (!contentSpan) return 'no content';
  const base = { index, role: role as MessageRole, span, contentSpan };
  if (typeof content === 'string') return { ...base, text: content, blocks: [] };
  if (!Array.isArray(content)) return 'content is neither text nor a list';
  const blockSpans = scanner.elements(contentSpan);
  if (blockSpans.length !== content.length) return 'the content could not be laid out';
  const blocks: RequestBlock[] = [];
  for (let j = 0; j < content.length; j++) {
    const b = content[j];
    if (!isObject(b)) return `block ${j} is not an object`;
    const type = b['type'];
    if (typeof type !== 'string' || !KNOWN_BLOCKS.has(type)) return `block ${j} has an unknown type ${JSON.stringify(type ?? null)}`;
    const bm = memberMap(scanner, blockSpans[j] as Span);
    if (typeof bm === 'string') return `block ${j}: ${bm}`;
    blocks.push({ index: j, type, span: blockSpans[j] as Span, value: b, members: bm });
  }
  return { ...base, text: null, blocks };
}

function memberMap(scanner: JsonScanner, span: Span): Map<string, Span> | string {
  const map = new Map<string, Span>();
  for (const m of scanner.members(span)) {
    if (map.has(m.key)) return `the field "${m.key}" appears twice`;
    map.set(m.key, m.value);
  }
  return map;
}
