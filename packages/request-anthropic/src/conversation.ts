import { createHash } from 'node:crypto';
import { isObject, type Json } from '@glassbox/core';
import type { ReadRequest } from './request';

/**
 * Which conversation a request continues. A client resends the same conversation with one more
 * exchange each time, so what stays put is its start: the first message (the client moves its cache
 * marker, and may send a lone text block as a plain string, so both are normalised away) and the
 * session the client names in its `x-claude-code-session-id` header. Without that header the system
 * prompt is taken in as well. Subagents of one session start with their own prompt, so each is its
 * own conversation; a compaction starts a new one.
 */
export function conversationKey(request: ReadRequest, sessionHeader: string | null): string | null {
  const messages = request.body['messages'];
  const first = Array.isArray(messages) ? messages[0] : undefined;
  if (!isObject(first)) return null;
  const h = createHash('sha256');
  h.update(sessionHeader === null ? `system:${JSON.stringify(normalise(request.body['system'] ?? null))}` : `session:${sessionHeader}`);
  h.update('\u0000');
  h.update(JSON.stringify({ role: first['role'] ?? null, content: normaliseContent(first['content']) }));
  return h.digest('hex').slice(0, 16);
}

function normaliseContent(content: Json | undefined): Json {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return normalise(content ?? null);
}

/** The value without `cache_control` anywhere in it. */
function normalise(v: Json): Json {
  if (Array.isArray(v)) return v.map(normalise);
  if (isObject(v)) {
    const out: { [key: string]: Json } = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = normalise(x);
    return out;
  }
  return v;
}
