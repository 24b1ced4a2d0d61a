import type { CompactionHistory, CompactionItem, CompactionSearch } from '@glassbox/core';
import { collapse } from './keys';

const SNIPPET_SIDE = 60;

/**
 * Every segment of every compacted window (a session's and its subagents') whose text holds the query,
 * case-insensitively, and which summaries hold it: "where did ECONNRESET go?". A segment kept verbatim
 * across a compaction is listed once, under the first compaction that had it.
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
    const seen = new Set<string>();
    for (const c of h.compactions) {
      out.summaries.push({ agentId: h.agentId, index: c.xray.index, found: (c.summary?.text ?? '').toLowerCase().includes(needle) });
      for (const item of [...c.xray.kept, ...c.xray.dropped].sort((a, b) => a.line - b.line)) {
        if (seen.has(item.segmentId)) continue;
        const text = textOf(h, item);
        const at = text ? text.toLowerCase().indexOf(needle) : -1;
        if (text === null || at < 0) continue;
        seen.add(item.segmentId);
        if (out.hits.length >= limit) {
          out.truncated = true;
          continue;
        }
        out.hits.push({
          agentId: h.agentId,
          index: c.xray.index,
          segmentId: item.segmentId,
          uuid: item.uuid,
          line: item.line,
          kind: item.kind,
          label: item.label,
          carried: item.carried,
          dead: item.dead,
          snippet: snippet(text, at, query.length),
        });
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
