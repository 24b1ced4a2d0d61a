import type { CacheTtl, Usage } from '@glassbox/core';
import type { ResponseFacts } from '@glassbox/request-anthropic';
import type { ProxyArchive } from './archive';
import type { RemovalRecord } from './records';

/**
 * What the proxy remembers about one conversation between its requests: the tombstones it decided
 * (repeated byte for byte from then on), the cache's clock, and whether rewrites are suspended.
 * Bodies are never kept. A conversation seen before (by this process or an earlier one) starts from
 * its archive records, so a restarted proxy sends the same tombstones.
 */
export interface ConversationState {
  id: string;
  /** Decided tombstones by `<tool_use id>:<target>`. */
  decided: Map<string, RemovalRecord>;
  requests: number;
  /** When the provider last used this conversation's cached prefix (the end of the last good reply), ms. */
  lastActivityAt: number | null;
  /** The last good reply, to recognise it as the next request's last assistant message. */
  lastResponse: SeenReply | null;
  /** The reply to the conversation's first request, when this proxy saw it: it measures the system prompt and tools. */
  firstResponse: SeenReply | null;
  /** The lifetime the provider's usage (or, before any usage, the request's cache marker) shows. */
  ttl: CacheTtl | 'unknown';
  /** Counts idle gaps (the cache expired between two requests); the conversation's start opens the first. */
  gap: number;
  /** A removal broke a warm cache in the current gap: no other may until the cache expires. */
  warmBreakInGap: boolean;
  /**
   * The last warm look for a break that pays: its request and the request's size. Economics change
   * slowly, so a warm cache is looked at again only once the conversation has grown or moved on.
   */
  lastWarmLook: { request: number; bytes: number } | null;
  /** Why rewrites are suspended; null while they are not. */
  suspended: string | null;
}

export interface SeenReply {
  facts: ResponseFacts;
  at: number;
}

export const decidedKey = (toolUseId: string, target: RemovalRecord['target']): string => `${toolUseId}:${target}`;

export function newState(id: string): ConversationState {
  return { id, decided: new Map(), requests: 0, lastActivityAt: null, lastResponse: null, firstResponse: null, ttl: 'unknown', gap: 0, warmBreakInGap: false, lastWarmLook: null, suspended: null };
}

/**
 * The state of a conversation as its records left it: a restarted proxy (a new `proxy run` for a
 * resumed session) keeps its tombstones, its suspension and the cache's clock — when the provider
 * last used the conversation's prefix, and which lifetime it wrote — so the first request after a
 * long pause is still known to meet an expired cache.
 */
export function loadState(archive: ProxyArchive, id: string, cacheTtlMs: number | null): ConversationState {
  const state = newState(id);
  for (const r of archive.removals(id)) state.decided.set(decidedKey(r.toolUseId, r.target), r);
  for (const e of archive.events(id)) {
    state.requests = Math.max(state.requests, e.request);
    if (e.suspended) state.suspended = e.suspended;
    if (e.cacheTtl) state.ttl = e.cacheTtl;
    // The idle gaps as they happened, so a warm break already spent in this one is not spent twice.
    const ttl = cacheTtlMs ?? TTL_MS[state.ttl === 'unknown' ? '5m' : state.ttl];
    if (state.lastActivityAt !== null && Date.parse(e.at) - state.lastActivityAt > ttl) {
      state.gap++;
      state.warmBreakInGap = false;
    }
    if (e.cacheBreak) state.warmBreakInGap = true;
    const ended = e.endedAt ? Date.parse(e.endedAt) : NaN;
    if (Number.isFinite(ended) && (state.lastActivityAt === null || ended > state.lastActivityAt)) state.lastActivityAt = ended;
  }
  return state;
}

/** The lifetime a reply's cache writes show, else what was known. */
export function ttlFrom(usage: Usage | null, known: CacheTtl | 'unknown'): CacheTtl | 'unknown' {
  if (!usage) return known;
  if (usage.cacheCreation1hTokens > 0) return '1h';
  if (usage.cacheCreation5mTokens > 0) return '5m';
  return known;
}

export const TTL_MS: Record<CacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };
