import { humanTokens } from '@glassbox/core';
import type { ConversationStatus } from '@glassbox/proxy';
import { paint } from './palette';

/** `glassbox proxy status`: one block per conversation, most recent first, each removal on one line. */
export function renderProxyStatus(status: readonly ConversationStatus[], color: boolean): string {
  const p = paint(color);
  if (status.length === 0) return 'No conversation has gone through the proxy yet (glassbox proxy serve, or glassbox proxy run -- claude).';
  const out: string[] = [];
  for (const s of status) {
    const where = s.meta.cwd ? `  ${s.meta.cwd}` : '';
    out.push(p.bold(`conversation ${s.meta.id}`) + p.dim(`${s.meta.sessionId ? `  session ${s.meta.sessionId}` : ''}${where}`));
    out.push(
      `  ${s.requests} request(s), ${s.rewritten} rewritten, ${humanTokens(s.savedTokens)} tokens fewer sent, ${s.cacheBreaks} warm cache break(s), ${s.failOpens} sent as the client sent them` +
        (s.lastRequestAt ? p.dim(`  last ${s.lastRequestAt.slice(0, 19).replace('T', ' ')} UTC`) : ''),
    );
    if (s.suspended) out.push(`  rewrites suspended since request ${s.suspended.request}: ${s.suspended.reason}`);
    for (const r of s.removals) {
      const moment = r.moment === 'cache-expired' ? 'cache expired' : r.moment === 'horizon' ? 'paid for itself' : '--evict-now';
      out.push(`  request ${String(r.request).padStart(4)}  ${p.cls(r.class, r.class.padEnd(16))} ${humanTokens(r.tokensFreed - r.tombstoneTokens).padStart(6)}  ${r.source}  ${p.dim(`(${moment}; sha256 ${r.sha256.slice(0, 12)})`)}`);
    }
    out.push('');
  }
  out.push(p.dim('glassbox show proxy --segment <sha256 prefix> prints a removed payload.'));
  return out.join('\n');
}
