import type { DeadClass, DeadProof } from '@glassbox/core';

/**
 * What the proxy writes about each conversation (docs/proxy.md, "Archive"): never a request body and
 * never a header; only the payloads it removed (in the archive's hash-named objects, like a fork's)
 * and these records beside them.
 */

/** When a removal was first applied, and why then. */
export type RemovalMoment = 'cache-expired' | 'horizon' | 'evict-now';

/** One payload replaced by a tombstone; every later request of the conversation carries the same tombstone. */
export interface RemovalRecord {
  toolUseId: string;
  target: 'tool-result' | 'tool-input';
  /** For a tool input: the field replaced (`content`, `new_string`). */
  field?: string;
  /** sha-256 of the exact JSON value the client sent, which the archive holds under that name. */
  sha256: string;
  bytes: number;
  tombstone: string;
  class: DeadClass;
  proof: DeadProof;
  /** What it was, for people: `src/app.ts`, `git status --short`. */
  source: string;
  tokensFreed: number;
  tombstoneTokens: number;
  /** The conversation's request (1-based) that first carried it. */
  request: number;
  at: string;
  moment: RemovalMoment;
}

/** One request through the proxy: what it did to it. No content. */
export interface RequestEvent {
  request: number;
  at: string;
  model: string | null;
  /** Tombstones the request carried (old and new). */
  tombstones: number;
  /** Of those, new at this request. */
  added: number;
  /** Estimated tokens the tombstones took out of this request, net of their own size. */
  savedTokens: number;
  /** New removals changed the request while the cache was warm. */
  cacheBreak: boolean;
  moment?: RemovalMoment;
  /** The client's bytes went through unchanged because of this (parse error, unknown field, refusal, …). */
  failOpen?: string;
  /** The conversation's rewrites were suspended at this request, and why. */
  suspended?: string;
  /** The upstream's status code. */
  status?: number;
  usage?: { input: number; cacheRead: number; cacheWrite: number; output: number };
  /** When a good reply ended: the provider last used the cached prefix then (a restarted proxy reads its clock from here). */
  endedAt?: string;
  /** The cache lifetime known after this reply. */
  cacheTtl?: '5m' | '1h';
}

export interface ConversationMeta {
  id: string;
  firstSeen: string;
  /** The client's session id (its `x-claude-code-session-id` header), to find its transcript. */
  sessionId: string | null;
  cwd: string | null;
  model: string | null;
}
