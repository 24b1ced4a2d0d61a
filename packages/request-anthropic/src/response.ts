import { createHash, type Hash } from 'node:crypto';
import { isObject, type Json, type JsonObject, type Usage } from '@glassbox/core';
import type { RequestMessage } from './request';

/**
 * What the proxy learns from a reply while it passes through untouched: the usage the provider
 * reported (the window's size and which cache lifetime it wrote) and a signature of the content, by
 * which the next request's last assistant message is recognised as this very reply. Streaming
 * replies are read event by event as their bytes go by; nothing is held but the current line.
 */
export interface ResponseFacts {
  usage: Usage | null;
  model: string | null;
  /** `u:<tool_use id>` or `t:<sha-256 of the text>` per text and tool_use block, in order. */
  signature: string[];
}

function usageOf(raw: Json | undefined, into: Usage | null): Usage | null {
  if (!isObject(raw)) return into;
  const u: Usage = into ? { ...into } : { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, cacheCreation5mTokens: 0, cacheCreation1hTokens: 0 };
  const n = (key: string): number | undefined => {
    const v = raw[key];
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  };
  u.inputTokens = n('input_tokens') ?? u.inputTokens;
  u.outputTokens = n('output_tokens') ?? u.outputTokens;
  u.cacheReadTokens = n('cache_read_input_tokens') ?? u.cacheReadTokens;
  const created = n('cache_creation_input_tokens');
  if (created !== undefined) u.cacheCreationTokens = created;
  const split = raw['cache_creation'];
  if (isObject(split)) {
    const m5 = split['ephemeral_5m_input_tokens'];
    const h1 = split['ephemeral_1h_input_tokens'];
    if (typeof m5 === 'number') u.cacheCreation5mTokens = m5;
    if (typeof h1 === 'number') u.cacheCreation1hTokens = h1;
  }
  return u;
}

/** Reads a server-sent event stream of the Messages API, chunk by chunk. */
export class StreamFacts {
  private pending = '';
  private readonly decoder = new TextDecoder('utf-8');
  private usage: Usage | null = null;
  private model: string | null = null;
  private readonly blocks = new Map<number, { id?: string; text?: Hash }>();

  push(chunk: Uint8Array): void {
    this.pending += this.decoder.decode(chunk, { stream: true });
    let nl = this.pending.indexOf('\n');
    while (nl >= 0) {
      const line = this.pending.slice(0, nl).replace(/\r$/, '');
      this.pending = this.pending.slice(nl + 1);
      if (line.startsWith('data:')) this.event(line.slice(5).trim());
      nl = this.pending.indexOf('\n');
    }
  }

  private event(data: string): void {
    let e: unknown;
    try {
      e = JSON.parse(data);
    } catch {
      return;
    }
    if (!isObject(e)) return;
    switch (e['type']) {
      case 'message_start': {
        const m = e['message'];
        if (!isObject(m)) return;
        if (typeof m['model'] === 'string') this.model = m['model'];
        this.usage = usageOf(m['usage'], this.usage);
        return;
      }
      case 'message_delta':
        this.usage = usageOf(e['usage'], this.usage);
        return;
      case 'content_block_start': {
        const index = e['index'];
        const b = e['content_block'];
        if (typeof index !== 'number' || !isObject(b)) return;
        if (b['type'] === 'tool_use' && typeof b['id'] === 'string') this.blocks.set(index, { id: b['id'] });
        else if (b['type'] === 'text') {
          const h = createHash('sha256');
          if (typeof b['text'] === 'string') h.update(b['text'], 'utf8');
          this.blocks.set(index, { text: h });
        }
        return;
      }
      case 'content_block_delta': {
        const d = e['delta'];
        const block = typeof e['index'] === 'number' ? this.blocks.get(e['index']) : undefined;
        if (block?.text && isObject(d) && d['type'] === 'text_delta' && typeof d['text'] === 'string') block.text.update(d['text'], 'utf8');
        return;
      }
      default:
        return;
    }
  }

  finish(): ResponseFacts {
    const signature: string[] = [];
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const b = this.blocks.get(index);
      if (b?.id) signature.push(`u:${b.id}`);
      else if (b?.text) signature.push(`t:${b.text.digest('hex')}`);
    }
    return { usage: this.usage, model: this.model, signature };
  }
}

/** The same facts from a reply that came whole (a JSON message). */
export function jsonFacts(body: JsonObject): ResponseFacts {
  return { usage: usageOf(body['usage'], null), model: typeof body['model'] === 'string' ? body['model'] : null, signature: contentSignature(body['content']) };
}

function contentSignature(content: Json | undefined): string[] {
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const b of content) {
    if (!isObject(b)) continue;
    if (b['type'] === 'tool_use' && typeof b['id'] === 'string') out.push(`u:${b['id']}`);
    else if (b['type'] === 'text' && typeof b['text'] === 'string') out.push(`t:${createHash('sha256').update(b['text'], 'utf8').digest('hex')}`);
  }
  return out;
}

/** The signature of an assistant message in a request, to recognise the reply it repeats. */
export function messageSignature(message: RequestMessage): string[] {
  if (message.text !== null) return [`t:${createHash('sha256').update(message.text, 'utf8').digest('hex')}`];
  return contentSignature(message.blocks.map((b) => b.value));
}
