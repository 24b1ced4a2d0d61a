import { TOMBSTONE_TOKENS_ESTIMATE } from '../tombstone';
import type { ClassRule } from './rule';

const SPENT_SOURCES = new Set(['command', 'search', 'url', 'mcp']);

/**
 * spent (inferred, never proven): a one-shot output of a command, search, fetch or MCP tool older than
 * the protected tail. Runs only when asked for.
 */
export const spentRule: ClassRule<'spent'> = {
  class: 'spent',
  stage: 50,
  apply(ctx) {
    const reran = new Map<string, number>();
    for (const s of ctx.segments) {
      if (s.kind === 'tool-result' && SPENT_SOURCES.has(s.source.type)) reran.set(s.source.label, (reran.get(s.source.label) ?? 0) + 1);
    }
    for (const s of ctx.segments) {
      if (s.class !== 'live' || s.protected || s.isError || s.kind !== 'tool-result') continue;
      if (!SPENT_SOURCES.has(s.source.type) || s.evictableTokens <= TOMBSTONE_TOKENS_ESTIMATE) continue;
      if (!s.toolUseId || !ctx.session.toolCalls.has(s.toolUseId)) continue;
      const again = (reran.get(s.source.label) ?? 0) > 1 ? ' (the same command ran again later)' : '';
      ctx.mark(s, 'spent', { inferred: true, reason: `a one-shot ${s.source.type} output older than the protected tail${again}; inferred, not proven` });
    }
  },
};
