/** What `glassbox proxy` did, as the window shows it (docs/proxy.md): one entry per proxied conversation. */
export interface ProxyRemovalView {
  /** The conversation's request (1-based) that first carried the tombstone. */
  request: number;
  class: string;
  /** What was removed, for people: a path relative to the working directory, a command. */
  source: string;
  /** Estimated tokens each later request carries less, net of the tombstone. */
  savedTokens: number;
  /** Why then: the cache had expired, the saving paid for a warm break, or --evict-now. */
  moment: 'cache-expired' | 'horizon' | 'evict-now';
  /** The archive hash prefix the tombstone shows (`glassbox show proxy --segment <it>`). */
  sha256Prefix: string;
}

export interface ProxyConversationView {
  id: string;
  /** The client's session id, to find its transcript in the list. */
  sessionId: string | null;
  cwd: string | null;
  firstSeen: string;
  lastRequestAt: string | null;
  requests: number;
  rewritten: number;
  savedTokens: number;
  cacheBreaks: number;
  failOpens: number;
  suspended: { request: number; reason: string } | null;
  removals: ProxyRemovalView[];
}

export interface ProxyView {
  conversations: ProxyConversationView[];
}
