import { isObject } from '@glassbox/core';
import type { ProxyArchive } from './archive';
import type { ConversationMeta, RemovalRecord } from './records';

/** One proxied conversation as `glassbox proxy status` and the window show it. */
export interface ConversationStatus {
  meta: ConversationMeta;
  requests: number;
  /** Requests that carried at least one tombstone. */
  rewritten: number;
  savedTokens: number;
  cacheBreaks: number;
  failOpens: number;
  suspended: { request: number; reason: string } | null;
  lastRequestAt: string | null;
  /** The removals, with the request that first carried each. */
  removals: RemovalRecord[];
}

/** Every conversation in the archive, most recent first. */
export function proxyStatus(archive: ProxyArchive): ConversationStatus[] {
  const out: ConversationStatus[] = [];
  for (const id of archive.conversations()) {
    const meta = archive.meta(id) ?? { id, firstSeen: '', sessionId: null, cwd: null, model: null };
    const s: ConversationStatus = { meta, requests: 0, rewritten: 0, savedTokens: 0, cacheBreaks: 0, failOpens: 0, suspended: null, lastRequestAt: null, removals: archive.removals(id) };
    for (const e of archive.events(id)) {
      s.requests++;
      if (e.tombstones > 0) s.rewritten++;
      s.savedTokens += e.savedTokens;
      if (e.cacheBreak) s.cacheBreaks++;
      if (e.failOpen) s.failOpens++;
      if (e.suspended && !s.suspended) s.suspended = { request: e.request, reason: e.suspended };
      if (!s.lastRequestAt || e.at > s.lastRequestAt) s.lastRequestAt = e.at;
    }
    out.push(s);
  }
  return out.sort((a, b) => (b.lastRequestAt ?? '').localeCompare(a.lastRequestAt ?? ''));
}

export interface ShownPayload {
  conversation: string;
  record: RemovalRecord;
  /** What the model was sent before the tombstone: the text of the result, or the input field. */
  text: string;
}

/**
 * Removed payloads back from the archive (hash-checked): by the tool_use id, or by the sha-256
 * prefix a tombstone shows (six hex digits at least), in any conversation or in the one named.
 */
export function showRemoved(archive: ProxyArchive, ref: string, conversation?: string): ShownPayload[] {
  const wanted = ref.toLowerCase();
  const out: ShownPayload[] = [];
  for (const id of conversation ? [conversation] : archive.conversations()) {
    for (const r of archive.removals(id)) {
      const byHash = /^[0-9a-f]{6,64}$/.test(wanted) && r.sha256.startsWith(wanted);
      if (!byHash && r.toolUseId !== ref) continue;
      if (out.some((o) => o.record.sha256 === r.sha256 && o.conversation === id)) continue;
      out.push({ conversation: id, record: r, text: payloadText(archive.payload(r.sha256)) });
    }
  }
  return out;
}

/** The JSON value the client sent, as text: a string as it reads, a list of parts by their text. */
function payloadText(bytes: Buffer): string {
  const v: unknown = JSON.parse(bytes.toString('utf8'));
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => (isObject(p) && typeof p['text'] === 'string' ? p['text'] : JSON.stringify(p))).join('\n');
  return JSON.stringify(v, null, 2);
}
