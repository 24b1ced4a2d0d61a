import { contextTokens, maxUsage, type ChainNode, type Session, type TurnPoint, type UsageRecord } from '@glassbox/core';

/** One API response: the usage record of its first record, with the largest usage any of its records reports. */
export type Response = UsageRecord;

/** The key that identifies a response across files: its message id and request id. */
export function responseKey(r: { readonly messageId: string; readonly requestId?: string | undefined }): string {
  return `${r.messageId}:${r.requestId ?? ''}`;
}

/**
 * Responses in the order first seen, found by message id and then request id. A long session has
 * tens of thousands of responses: a key string built for each, and a copy of each record, were most
 * of what counting them held in memory.
 */
class ResponseTable {
  readonly list: Response[] = [];
  /** Where the first response of each message id is. */
  private readonly byMessage = new Map<string, number>();
  /** Where a response is whose message id came first with another request id (rare: a copied id). */
  private readonly byKey = new Map<string, number>();

  /** Where the response with this message and request id is, or -1. */
  indexOf(messageId: string, requestId: string | undefined): number {
    const i = this.byMessage.get(messageId);
    if (i === undefined) return -1;
    if ((this.list[i]?.requestId ?? '') === (requestId ?? '')) return i;
    return this.byKey.get(responseKey({ messageId, requestId })) ?? -1;
  }

  /** Adds a response not yet in the table. */
  add(r: Response): void {
    const at = this.list.length;
    this.list.push(r);
    if (!this.byMessage.has(r.messageId)) this.byMessage.set(r.messageId, at);
    else this.byKey.set(responseKey(r), at);
  }

  /** The same response reported again: its largest usage is kept, on a copy, so the session's own record is never changed. */
  merge(at: number, usage: UsageRecord['usage']): void {
    const prev = this.list[at] as Response;
    this.list[at] = { ...prev, usage: maxUsage(prev.usage, usage) };
  }
}

/**
 * One entry per API response: records sharing a message id (and request id) are one response, and
 * its usage is the largest reported on any of them (streamed replies log intermediate usage first).
 * A record of what a compaction let go is returned as it is (nothing changes a usage in place).
 */
export function responsesOf(session: Session, options: { sidechain?: boolean } = {}): Response[] {
  const table = new ResponseTable();
  for (const p of session.prunedUsage ?? []) {
    if (options.sidechain !== undefined && p.isSidechain !== options.sidechain) continue;
    const at = table.indexOf(p.messageId, p.requestId);
    if (at >= 0) table.merge(at, p.usage);
    else table.add(p);
  }
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    if (!n || n.kind !== 'assistant' || !n.usage) continue;
    if (options.sidechain !== undefined && n.isSidechain !== options.sidechain) continue;
    const messageId = n.messageId ?? n.uuid;
    const at = table.indexOf(messageId, n.requestId);
    if (at >= 0) {
      table.merge(at, n.usage);
      continue;
    }
    const r: Response = { messageId, model: n.model ?? 'unknown', line: n.line, usage: n.usage, isSidechain: n.isSidechain };
    if (n.requestId) r.requestId = n.requestId;
    if (n.timestamp) r.timestamp = n.timestamp;
    if (n.synthetic) r.synthetic = true;
    table.add(r);
  }
  return table.list;
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
    const contextSize = contextTokens(r.usage);
    // One literal each way: a property added after the object is made takes a separate property
    // array, and a long session has tens of thousands of these.
    return r.timestamp
      ? { index, line: r.line, messageId: r.messageId, model: r.model, contextTokens: contextSize, usage: r.usage, afterCompaction, timestamp: r.timestamp }
      : { index, line: r.line, messageId: r.messageId, model: r.model, contextTokens: contextSize, usage: r.usage, afterCompaction };
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
