import { contextTokens, maxUsage, type ChainNode, type Session, type TurnPoint, type UsageRecord } from '@glassbox/core';

/** One API response: a usage record with the key that identifies it across files. */
export interface Response extends UsageRecord {
  key: string;
}

/**
 * One entry per API response: records sharing a message id (and request id) are one response, and
 * its usage is the largest reported on any of them (streamed replies log intermediate usage first).
 */
export function responsesOf(session: Session, options: { sidechain?: boolean } = {}): Response[] {
  const byKey = new Map<string, Response>();
  for (const p of session.prunedUsage ?? []) {
    if (options.sidechain !== undefined && p.isSidechain !== options.sidechain) continue;
    const key = `${p.messageId}:${p.requestId ?? ''}`;
    const prev = byKey.get(key);
    if (prev) {
      prev.usage = maxUsage(prev.usage, p.usage);
      continue;
    }
    // The record's own usage object, not a copy: nothing changes a usage in place (maxUsage makes a new one).
    const r: Response = { key, messageId: p.messageId, model: p.model, line: p.line, usage: p.usage, isSidechain: p.isSidechain };
    if (p.requestId) r.requestId = p.requestId;
    if (p.timestamp) r.timestamp = p.timestamp;
    if (p.synthetic) r.synthetic = true;
    byKey.set(key, r);
  }
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    if (!n || n.kind !== 'assistant' || !n.usage) continue;
    if (options.sidechain !== undefined && n.isSidechain !== options.sidechain) continue;
    const key = responseKey(n);
    const prev = byKey.get(key);
    if (prev) {
      prev.usage = maxUsage(prev.usage, n.usage);
      continue;
    }
    const r: Response = {
      key,
      messageId: n.messageId ?? n.uuid,
      model: n.model ?? 'unknown',
      line: n.line,
      usage: n.usage,
      isSidechain: n.isSidechain,
    };
    if (n.requestId) r.requestId = n.requestId;
    if (n.timestamp) r.timestamp = n.timestamp;
    if (n.synthetic) r.synthetic = true;
    byKey.set(key, r);
  }
  return [...byKey.values()];
}

function responseKey(n: ChainNode): string {
  return `${n.messageId ?? n.uuid}:${n.requestId ?? ''}`;
}

/** Context size per main-thread API response, with compactions marked. */
export function turnPoints(session: Session): TurnPoint[] {
  const main = responsesOf(session, { sidechain: false }).filter((r) => !r.synthetic && contextTokens(r.usage) > 0);
  const boundaries = session.order
    .map((u) => session.nodes.get(u))
    .filter((n): n is ChainNode => !!n && n.kind === 'compact-boundary' && !n.isSidechain)
    .map((n) => n.line)
    .sort((a, b) => a - b);
  let prevLine = 0;
  return main.map((r, index) => {
    // The first boundary after the previous response, by binary search: a scan of every boundary per
    // response grew with the square of the compactions (the x-ray analyses a window per compaction).
    const next = boundaries[firstAbove(boundaries, prevLine)];
    const afterCompaction = next !== undefined && next < r.line;
    prevLine = r.line;
    const p: TurnPoint = {
      index,
      line: r.line,
      messageId: r.messageId,
      model: r.model,
      contextTokens: contextTokens(r.usage),
      usage: r.usage,
      afterCompaction,
    };
    if (r.timestamp) p.timestamp = r.timestamp;
    return p;
  });
}

/** The index of the first value above `x` in ascending `sorted` (its length when none is). */
function firstAbove(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
