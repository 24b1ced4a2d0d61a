import { createHash } from 'node:crypto';
import { isObject, type Json, type JsonObject } from '@glassbox/core';
import { JsonScanner, type Span } from './json-spans';
import { readRequest, type ReadRequest, type RequestBlock } from './request';
import { WRITE_TOOL_FIELDS } from './tools';

/**
 * Tombstones put into a request's bytes: each replaces exactly one JSON value (a tool_result's
 * `content`, or the heavy string field of a Write/Edit input) and every other byte is the client's.
 * A rewrite is then checked against the original it came from before it may be sent.
 */
export interface Replacement {
  message: number;
  block: number;
  target: 'tool-result' | 'tool-input';
  tombstone: string;
}

/** What one replacement took out: the exact bytes of the JSON value, and their sha-256. */
export interface Removed {
  replacement: Replacement;
  /** Where the value was in the client's bytes. */
  span: Span;
  /** The JSON text of the value as the client sent it. */
  original: Buffer;
  sha256: string;
  /** For tool inputs, the field replaced. */
  field?: string;
}

export type Rewrite = { ok: true; bytes: Buffer; removed: Removed[] } | { ok: false; reason: string };

/** Where a replacement goes in the bytes, or why it cannot go anywhere. */
export function locate(request: ReadRequest, r: Replacement): { span: Span; field?: string } | string {
  const block = request.messages[r.message]?.blocks[r.block];
  if (!block) return `message ${r.message} has no block ${r.block}`;
  if (r.target === 'tool-result') {
    if (block.type !== 'tool_result') return `message ${r.message} block ${r.block} is not a tool_result`;
    const span = block.members.get('content');
    return span ? { span } : 'the tool_result has no content';
  }
  return inputField(request, block);
}

function inputField(request: ReadRequest, block: RequestBlock): { span: Span; field: string } | string {
  if (block.type !== 'tool_use') return 'not a tool_use';
  const name = typeof block.value['name'] === 'string' ? block.value['name'] : '';
  const field = WRITE_TOOL_FIELDS[name];
  const inputSpan = block.members.get('input');
  if (!field || !inputSpan) return `the ${name || 'tool'} input has no field a tombstone may replace`;
  const member = new JsonScanner(request.bytes).members(inputSpan).filter((m) => m.key === field);
  if (member.length !== 1 || !member[0]) return `the ${name} input has no single "${field}"`;
  return { span: member[0].value, field };
}

function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The request's bytes with every replacement spliced in, in byte order; refuses overlaps and misses. */
export function rewriteRequest(request: ReadRequest, replacements: readonly Replacement[]): Rewrite {
  const placed: { span: Span; r: Replacement; field?: string; text: Buffer }[] = [];
  for (const r of replacements) {
    const where = locate(request, r);
    if (typeof where === 'string') return { ok: false, reason: where };
    const text = Buffer.from(JSON.stringify(r.tombstone), 'utf8');
    if (text.length >= where.span.end - where.span.start) return { ok: false, reason: `the tombstone for message ${r.message} block ${r.block} is not shorter than what it replaces` };
    const p: (typeof placed)[number] = { span: where.span, r, text };
    if (where.field) p.field = where.field;
    placed.push(p);
  }
  placed.sort((a, b) => a.span.start - b.span.start);
  const parts: Buffer[] = [];
  const removed: Removed[] = [];
  let at = 0;
  for (const p of placed) {
    if (p.span.start < at) return { ok: false, reason: 'two replacements overlap' };
    parts.push(request.bytes.subarray(at, p.span.start), p.text);
    const original = Buffer.from(request.bytes.subarray(p.span.start, p.span.end));
    const rec: Removed = { replacement: p.r, span: p.span, original, sha256: sha256Hex(original) };
    if (p.field) rec.field = p.field;
    removed.push(rec);
    at = p.span.end;
  }
  parts.push(request.bytes.subarray(at));
  return { ok: true, bytes: Buffer.concat(parts), removed };
}

/**
 * The differential check of a rewrite, twice over. As bytes: outside its tombstones it is the
 * client's request byte for byte. Read back by the parser: it is the original request with exactly
 * the replaced values changed to their tombstones — same messages, roles, blocks, ids and pairing,
 * every other value equal. Returns why not, or null.
 */
export function checkRewrite(original: ReadRequest, rewritten: Buffer, removed: readonly Removed[]): string | null {
  const bytes = bytesProblem(original.bytes, rewritten, removed);
  if (bytes) return bytes;
  // Outside the tombstones the bytes are the client's (just checked); read back, each replaced value
  // must be its tombstone in a block of the same kind and id, and the pairing must hold.
  const back = readRequest(rewritten);
  if (!back.ok) return `the rewritten request does not read back (${back.reason})`;
  if (back.request.messages.length !== original.messages.length) return 'the rewritten request has another number of messages';
  for (const { replacement: r } of removed) {
    const was = original.messages[r.message]?.blocks[r.block];
    const now = back.request.messages[r.message]?.blocks[r.block];
    if (!was || !now || was.type !== now.type) return `message ${r.message} block ${r.block} changed kind`;
    if (now.value['id'] !== was.value['id'] || now.value['tool_use_id'] !== was.value['tool_use_id']) return `message ${r.message} block ${r.block} changed its tool id`;
    if (r.target === 'tool-result') {
      if (now.value['content'] !== r.tombstone) return `message ${r.message} block ${r.block} does not hold its tombstone`;
    } else {
      const input = now.value['input'];
      const field = WRITE_TOOL_FIELDS[typeof now.value['name'] === 'string' ? now.value['name'] : ''];
      if (!isObject(input) || !field || input[field] !== r.tombstone) return `message ${r.message} block ${r.block} does not hold its tombstone`;
    }
  }
  return pairingProblem(back.request.body);
}

function bytesProblem(original: Buffer, rewritten: Buffer, removed: readonly Removed[]): string | null {
  let o = 0;
  let w = 0;
  for (const r of [...removed].sort((a, b) => a.span.start - b.span.start)) {
    const keep = r.span.start - o;
    if (keep < 0 || !original.subarray(o, r.span.start).equals(rewritten.subarray(w, w + keep))) return 'the rewritten request changed bytes outside its tombstones';
    w += keep;
    const t = Buffer.from(JSON.stringify(r.replacement.tombstone), 'utf8');
    if (!rewritten.subarray(w, w + t.length).equals(t)) return 'a tombstone is not where its payload was';
    w += t.length;
    o = r.span.end;
  }
  if (!original.subarray(o).equals(rewritten.subarray(w)) || rewritten.length - w !== original.length - o) return 'the rewritten request changed bytes outside its tombstones';
  return null;
}

/**
 * Every tool_use answered by a tool_result in the next user or assistant message, and every
 * tool_result answering one; system messages (which a client may place between) take no part.
 */
function pairingProblem(body: JsonObject): string | null {
  const messages = body['messages'];
  if (!Array.isArray(messages)) return 'no messages';
  const open = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (isObject(m) && m['role'] === 'system') continue;
    const blocks = blocksOf(m);
    const answered = new Set<string>();
    for (const b of blocks) if (b['type'] === 'tool_result' && typeof b['tool_use_id'] === 'string') answered.add(b['tool_use_id']);
    for (const id of answered) if (!open.has(id)) return `message ${i} answers ${id}, which no previous message asked`;
    for (const id of open) if (!answered.has(id)) return `the tool_use ${id} is not answered by message ${i}`;
    open.clear();
    for (const b of blocks) if (b['type'] === 'tool_use' && typeof b['id'] === 'string') open.add(b['id']);
  }
  return null;
}

function blocksOf(message: Json | undefined): JsonObject[] {
  const content = isObject(message) ? message['content'] : undefined;
  return Array.isArray(content) ? content.filter(isObject) : [];
}
