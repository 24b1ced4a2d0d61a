import type { Segment } from '@glassbox/core';
import { TOMBSTONE_TOKENS_ESTIMATE } from '../tombstone';
import type { ClassRule } from './rule';

/**
 * duplicate: a later resident copy of a tool result has the same bytes (sha-256 and length). The
 * latest live copy is kept; payloads no bigger than their tombstone are ignored.
 */
export const duplicateRule: ClassRule<'duplicate'> = {
  class: 'duplicate',
  stage: 40,
  apply(ctx) {
    const groups = new Map<string, Segment[]>();
    for (const s of ctx.segments) {
      if (s.kind !== 'tool-result' || !s.hash || s.isError || s.class !== 'live') continue;
      if (s.evictableTokens <= TOMBSTONE_TOKENS_ESTIMATE) continue;
      const key = `${s.hash}:${s.bytes}`;
      const g = groups.get(key);
      if (g) g.push(s);
      else groups.set(key, [s]);
    }
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      const kept = [...group].reverse().find((s) => s.class === 'live');
      if (!kept) continue;
      for (const s of group) {
        if (s === kept || s.class !== 'live' || after(s, kept)) continue;
        ctx.mark(s, 'duplicate', { hash: s.hash ?? '', bytes: s.bytes, kept: ctx.refOf(kept), copies: group.length });
      }
    }
  },
};

function after(a: Segment, b: Segment): boolean {
  return a.line > b.line || (a.line === b.line && a.blockIndex > b.blockIndex);
}
