import type { CompactionHistory, CompactionHit, CompactionItem, CompactionSearch } from '@glassbox/core';
import { collapse } from './keys';

const SNIPPET_SIDE = 60;

/**
 * Every segment of every compacted window (a session's and its subagents') whose text holds the query,
 * case-insensitively, and which summaries hold it: "where did ECONNRESET go?". A segment kept verbatim
 * across a compaction is listed once, with what became of it at each compaction that met it.
 */
export function searchCompactions(
  histories: readonly CompactionHistory[],
  query: string,
  textOf: (history: CompactionHistory, item: CompactionItem) => string | null,
  limit = 200,
): CompactionSearch {
  const needle = query.toLowerCase();
  const out: CompactionSearch = { query, hits: [], summaries: [], truncated: false };
  if (needle.trim().length === 0) return out;
  for (const h of histories) {
    const bySegment = new Map<string, CompactionHit>();
    for (const c of h.compactions) {
      out.summaries.push({ agentId: h.agentId, index: c.xray.index, found: (c.summary?.text ?? '').toLowerCase().includes(needle) });
      for (const item of [...c.xray.kept, ...c.xray.dropped].sort((a, b) => a.line - b.line)) {
        const known = bySegment.get(item.segmentId);
        if (known) {
          known.fates.push({ index: c.xray.index, carried: item.carried });
          continue;
        }
        const text = textOf(h, item);
        const at = text ? text.toLowerCase().indexOf(needle) : -1;
        if (text === null || at < 0) continue;
        if (out.hits.length >= limit) {
          out.truncated = true;
          continue;
        }
        const hit: CompactionHit = {
          agentId: h.agentId,
          index: c.xray.index,
          fates: [{ index: c.xray.index, carried: item.carried }],
          segmentId: item.segmentId,
          uuid: item.uuid,
          line: item.line,
          kind: item.kind,
          label: item.label,
          dead: item.dead,
          snippet: snippet(text, at, query.length),
        };
        bySegment.set(item.segmentId, hit);
        out.hits.push(hit);
      }
    }
  }
  return out;
}

function snippet(text: string, at: number, length: number): string {
  const from = Math.max(0, at - SNIPPET_SIDE);
  const to = Math.min(text.length, at + length + SNIPPET_SIDE);
  return `${from > 0 ? '…' : ''}${collapse(text.slice(from, to))}${to < text.length ? '…' : ''}`;
}
