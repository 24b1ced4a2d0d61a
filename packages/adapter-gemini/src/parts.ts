import { IMAGE_TOKENS, isObject, str, type Block, type Json, type JsonObject } from '@glassbox/core';
import { byteLength, sha256Hex } from './hash';
import { tokensOf } from './tokens';
import { hashableOutput } from './shell-output';
import { MASKED_TAG } from './rules';

/** Payloads smaller than this cannot pay for a tombstone: they are not hashed for duplicate search. */
const HASH_MIN_BYTES = 128;
const PREVIEW_CHARS = 160;

/** A Gemini `Part` list from a message's `content` (a string, one part, or a list), as the client normalises it. */
export function partsOf(content: Json | undefined): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (Array.isArray(content)) return content.flatMap((p) => (typeof p === 'string' ? [{ text: p }] : isObject(p) ? [p] : []));
  if (isObject(content)) return [content];
  return [];
}

/** The text of the text parts (thoughts excluded), joined. */
export function partsText(parts: readonly JsonObject[]): string {
  return parts.filter((p) => typeof p['text'] === 'string' && p['thought'] !== true).map((p) => p['text'] as string).join('');
}

export function preview(text: string): string {
  const one = text.slice(0, PREVIEW_CHARS * 2).replace(/\s+/g, ' ').trim();
  return one.length > PREVIEW_CHARS ? `${one.slice(0, PREVIEW_CHARS - 1)}…` : one;
}

/** What a function response carries as the model reads it: its `output` string, else the JSON of the response (`{"error": …}`). */
export function responseText(response: Json | undefined): string {
  if (isObject(response)) {
    const out = response['output'];
    if (typeof out === 'string') return out;
    // An error (or any other shape) reaches the model as the response object itself.
    return JSON.stringify(response);
  }
  return typeof response === 'string' ? response : JSON.stringify(response ?? null);
}

export function isErrorResponse(response: Json | undefined): boolean {
  return isObject(response) && response['error'] !== undefined && response['output'] === undefined;
}

function textBlock(index: number, kind: Block['kind'], text: string): Block {
  const bytes = byteLength(text);
  return { index, kind, bytes, tokens: tokensOf(bytes), preview: preview(text) };
}

/** One block per part, as the model sees it. */
export function partBlock(part: JsonObject, index: number): Block {
  if (typeof part['text'] === 'string') return textBlock(index, part['thought'] === true ? 'thinking' : 'text', part['text']);
  const call = part['functionCall'];
  if (isObject(call)) {
    const args = JSON.stringify(call['args'] ?? {});
    const bytes = byteLength(args);
    const b: Block = { index, kind: 'tool-use', bytes, tokens: tokensOf(bytes), preview: preview(`${str(call['name']) ?? 'tool'} ${args}`) };
    const id = str(call['id']);
    if (id) b.toolUseId = id;
    const name = str(call['name']);
    if (name) b.toolName = name;
    return b;
  }
  const resp = part['functionResponse'];
  if (isObject(resp)) {
    const text = responseText(resp['response']);
    const bytes = byteLength(text);
    const b: Block = { index, kind: 'tool-result', bytes, tokens: tokensOf(bytes), preview: preview(text) };
    const id = str(resp['id']);
    if (id) b.toolUseId = id;
    const name = str(resp['name']);
    if (name) b.toolName = name;
    if (isErrorResponse(resp['response'])) b.isError = true;
    if (text.startsWith(MASKED_TAG)) b.label = 'masked by Gemini CLI: a preview; the full output is in tool-outputs/';
    if (bytes >= HASH_MIN_BYTES) b.hash = sha256Hex(hashableOutput(text));
    return b;
  }
  if (isObject(part['inlineData']) || isObject(part['fileData'])) return { index, kind: 'image', bytes: 0, tokens: IMAGE_TOKENS, preview: '(inline data)' };
  const other = JSON.stringify(part);
  const bytes = byteLength(other);
  return { index, kind: 'other', bytes, tokens: tokensOf(bytes), preview: preview(other) };
}
