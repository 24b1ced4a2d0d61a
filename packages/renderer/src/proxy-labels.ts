import type { ProxyConversationView, ProxyRemovalView } from '@glassbox/contract';
import { humanTokens } from './format';

/** One line per proxied conversation: what the proxy did to its requests. */
export function conversationSummary(c: ProxyConversationView): string {
  const parts = [`${c.requests} request${c.requests === 1 ? '' : 's'}`, `${c.rewritten} rewritten`, `${humanTokens(c.savedTokens)} tokens fewer sent`];
  if (c.cacheBreaks > 0) parts.push(`${c.cacheBreaks} warm cache break${c.cacheBreaks === 1 ? '' : 's'}`);
  if (c.failOpens > 0) parts.push(`${c.failOpens} sent as the client sent ${c.failOpens === 1 ? 'it' : 'them'}`);
  return parts.join(' · ');
}

/** The conversation's folder, last two parts, or its id. */
export function conversationName(c: ProxyConversationView): string {
  const tail = c.cwd?.split(/[\\/]/).filter(Boolean).slice(-2).join('/');
  return tail ? `${tail} · ${c.id.slice(0, 8)}` : `conversation ${c.id.slice(0, 8)}`;
}

const MOMENT: Record<ProxyRemovalView['moment'], string> = {
  'cache-expired': 'the cache had expired',
  horizon: 'it paid for a warm break',
  'evict-now': '--evict-now',
};

/** Why a removal came when it did. */
export function momentText(r: ProxyRemovalView): string {
  return MOMENT[r.moment];
}

/** Removals grouped by the request that first carried them, in request order. */
export function byRequest(removals: readonly ProxyRemovalView[]): { request: number; removals: ProxyRemovalView[] }[] {
  const groups = new Map<number, ProxyRemovalView[]>();
  for (const r of removals) groups.set(r.request, [...(groups.get(r.request) ?? []), r]);
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([request, list]) => ({ request, removals: list }));
}
