import { IMAGE_TOKENS, tombstoneMark, type Block, type BlockKind } from '@glassbox/core';
import { tokensOf } from './tokens';
import { sha256, utf8Bytes } from './hash';
import { isObject, str, type Json } from './json';
import { parseShellOutput } from './shell-output';
import { oneLine } from './squeeze';

/** Payloads smaller than this can never pay for a tombstone, so they are not hashed for deduplication. */
const HASH_MIN_BYTES = 128;
const PREVIEW_CHARS = 160;

/** The first characters of a text on one line (whitespace collapsed, looked for in its first 320 characters). */
export function preview(text: string): string {
  return oneLine(text, PREVIEW_CHARS, PREVIEW_CHARS * 2);
}

function textBlock(index: number, kind: BlockKind, text: string): Block {
  const bytes = utf8Bytes(text);
  return { index, kind, bytes, tokens: tokensOf(bytes), preview: preview(text) };
}

/** Message content parts: text parts as text blocks, images at a fixed cost. */
export function contentBlocks(content: Json | undefined): Block[] {
  if (typeof content === 'string') return [textBlock(0, 'text', content)];
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  content.forEach((part, index) => {
    if (!isObject(part)) return;
    const type = str(part['type']) ?? '';
    if (type === 'input_image' || type === 'output_image') out.push({ index, kind: 'image', bytes: 0, tokens: IMAGE_TOKENS, preview: '(image)' });
    else out.push(textBlock(index, 'text', str(part['text']) ?? str(part['refusal']) ?? ''));
  });
  return out;
}

/** The text of a message's content parts, joined. */
export function contentText(content: Json | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObject(p) ? (str(p['text']) ?? '') : '')).join('\n');
}

/**
 * A reasoning item: its readable summary (and raw reasoning text, when present) as thinking, and its
 * `encrypted_content` — opaque, sent back verbatim — counted by its size and labelled as such.
 */
export function reasoningBlocks(summary: Json | undefined, content: Json | undefined, encrypted: string | undefined): Block[] {
  const parts: string[] = [];
  for (const list of [summary, content]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) if (isObject(p)) parts.push(str(p['text']) ?? '');
  }
  const out: Block[] = [];
  const text = parts.join('\n');
  if (text !== '') out.push(textBlock(0, 'thinking', text));
  if (encrypted) {
    const bytes = utf8Bytes(encrypted);
    out.push({ index: 1, kind: 'redacted-thinking', bytes, tokens: tokensOf(bytes), preview: `(encrypted reasoning, ${bytes} bytes)` });
  }
  return out;
}

/** The output of a call as the model gets it; its text, and the body after the per-call header. */
export function outputText(output: Json | undefined): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((p) => (isObject(p) ? (str(p['text']) ?? str(p['image_url']) ?? '') : '')).join('\n');
  if (isObject(output)) {
    const content = output['content'];
    if (typeof content === 'string') return content;
    return JSON.stringify(output);
  }
  return '';
}

/**
 * A tool output block. `hash` is the sha-256 of the output *body* — what follows the per-call header
 * (`Chunk ID`, `Wall time`, exit code, token count) — so that one command run twice with the same
 * output gives the same hash although the two records differ in their headers.
 */
export function outputBlock(callId: string, text: string): { block: Block; exitCode: number | null; running: boolean; truncated: boolean; body: string } {
  const parsed = parseShellOutput(text);
  const bytes = utf8Bytes(text);
  const block: Block = { index: 0, kind: 'tool-result', bytes, tokens: tokensOf(bytes), preview: preview(parsed.body || text), toolUseId: callId };
  if (bytes >= HASH_MIN_BYTES) block.hash = sha256(parsed.body);
  // A fork's tombstone or elision (Glassbox's own format): never planned again, its payload recallable.
  const mark = tombstoneMark(text);
  if (mark) Object.assign(block, mark);
  return { block, exitCode: parsed.exitCode, running: parsed.running, truncated: parsed.truncated, body: parsed.body };
}
