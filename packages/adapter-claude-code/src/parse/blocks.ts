import { IMAGE_TOKENS, tokenCount, type Block, type BlockKind, type Usage } from '@glassbox/core';
import { tokensOf } from '../tokens';
import { utf8Bytes } from '../hash';
import { isObject, str, type Json, type JsonObject } from '../record-types';

/** Payloads smaller than this can never pay for a tombstone, so they are not hashed for deduplication. */
export const HASH_MIN_BYTES = 128;
const PREVIEW_CHARS = 160;

/** A text block; `shown` is its preview (worked out from the text unless given). */
export function textBlock(index: number, kind: BlockKind, text: string, shown = preview(text)): Block {
  const bytes = utf8Bytes(text);
  return { index, kind, bytes, tokens: tokensOf(bytes), preview: shown };
}

export function imageBlock(index: number, type: string): Block {
  return { index, kind: type === 'image' ? 'image' : 'document', bytes: 0, tokens: IMAGE_TOKENS, preview: `(${type})` };
}

export function otherBlock(index: number, block: JsonObject): Block {
  const bytes = jsonBytes(block);
  return { index, kind: 'other', bytes, tokens: tokensOf(bytes), preview: preview(str(block['type']) ?? '') };
}

/** The first characters of a text on one line, for display. */
export function preview(text: string): string {
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

/** A reply's usage; a count that is not a whole number ≥ 0 is taken as 0 and `bad.invalid` set (core's tokenCount). */
export function parseUsage(raw: unknown, bad: { invalid: boolean } = { invalid: false }): Usage | undefined {
  if (!isObject(raw)) return undefined;
  const cache = raw['cache_creation'];
  const u: Usage = {
    inputTokens: tokenCount(raw['input_tokens'], bad),
    outputTokens: tokenCount(raw['output_tokens'], bad),
    cacheCreationTokens: tokenCount(raw['cache_creation_input_tokens'], bad),
    cacheReadTokens: tokenCount(raw['cache_read_input_tokens'], bad),
    cacheCreation5mTokens: 0,
    cacheCreation1hTokens: 0,
  };
  if (isObject(cache)) {
    u.cacheCreation5mTokens = tokenCount(cache['ephemeral_5m_input_tokens'], bad);
    u.cacheCreation1hTokens = tokenCount(cache['ephemeral_1h_input_tokens'], bad);
  } else {
    u.cacheCreation5mTokens = u.cacheCreationTokens;
  }
  return u;
}
