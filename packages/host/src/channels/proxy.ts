/** What `glassbox proxy` did: the conversations it served, read from the archive in Glassbox's data folder. */
import { join } from 'node:path';
import { ok, type ProxyConversationView } from '@glassbox/contract';
import { ProxyArchive, proxyStatus } from '@glassbox/proxy';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function proxyHandlers(host: HostContext): HandlersFor<'proxy:conversations'> {
  return {
    'proxy:conversations': async () => {
      // Records only (figures, sources, proofs' classes): no payload crosses to the window here.
      const conversations: ProxyConversationView[] = proxyStatus(new ProxyArchive(join(host.dataDir, 'archive'))).map((s) => ({
        id: s.meta.id,
        sessionId: s.meta.sessionId,
        cwd: s.meta.cwd,
        firstSeen: s.meta.firstSeen,
        lastRequestAt: s.lastRequestAt,
        requests: s.requests,
        rewritten: s.rewritten,
        savedTokens: s.savedTokens,
        cacheBreaks: s.cacheBreaks,
        failOpens: s.failOpens,
        suspended: s.suspended,
        removals: s.removals.map((r) => ({ request: r.request, class: r.class, source: r.source, savedTokens: r.tokensFreed - r.tombstoneTokens, moment: r.moment, sha256Prefix: r.sha256.slice(0, 12) })),
      }));
      return ok({ conversations });
    },
  };
}
