import { describe, expect, it } from 'vitest';
import type { ProxyConversationView } from '@glassbox/contract';
import { byRequest, conversationName, conversationSummary, momentText } from './proxy-labels';

// The shape the host's proxy:conversations channel answers (its own test reads a real replayed run).
const c: ProxyConversationView = {
  id: 'af3e0dbe4846854a',
  sessionId: '45b6addf-a367-478e-9e08-9192d6995199',
  cwd: '/tmp/work/31-proxy-live/project',
  firstSeen: '2026-12-02T04:12:42.627Z',
  lastRequestAt: '2026-12-02T04:13:20.000Z',
  requests: 22,
  rewritten: 9,
  savedTokens: 26_200,
  cacheBreaks: 0,
  failOpens: 1,
  suspended: null,
  removals: [
    { request: 21, class: 'stale-superseded', source: 'data/catalog.txt', savedTokens: 1331, moment: 'cache-expired', sha256Prefix: 'ba70138271f6' },
    { request: 14, class: 'gone', source: 'docs/DESIGN.md', savedTokens: 1052, moment: 'cache-expired', sha256Prefix: 'e3c098c5e929' },
    { request: 14, class: 'duplicate', source: 'head -80 data/catalog.txt', savedTokens: 587, moment: 'horizon', sha256Prefix: 'f5f92ded35d2' },
  ],
};

describe('the proxy panel says what the proxy did', () => {
  it('sums a conversation up in one line, naming fail-opens and leaving out what did not happen', () => {
    expect(conversationSummary(c)).toBe('22 requests · 9 rewritten · 26.2k tokens fewer sent · 1 sent as the client sent it');
    expect(conversationName(c)).toBe('31-proxy-live/project · af3e0dbe');
    expect(conversationName({ ...c, cwd: null })).toBe('conversation af3e0dbe');
  });

  it('groups removals by the request that first carried them, in order, with why then', () => {
    expect(byRequest(c.removals).map((g) => [g.request, g.removals.map((r) => r.source)])).toEqual([
      [14, ['docs/DESIGN.md', 'head -80 data/catalog.txt']],
      [21, ['data/catalog.txt']],
    ]);
    expect(c.removals.map(momentText)).toEqual(['the cache had expired', 'the cache had expired', 'it paid for a warm break']);
  });
});
