import { maxUsage, type ChainNode, type Usage, type UsageRecord } from '@glassbox/core';
import { isObject, str, type JsonObject } from '../record-types';
import type { ParseState } from './state';
import { settleDetails } from './deferred-details';

/** Reads a `compact_boundary`'s metadata: the messages it kept verbatim and where they hang. */
export function readBoundary(r: JsonObject, node: ChainNode): void {
  const meta = r['compactMetadata'];
  if (!isObject(meta)) return;
  const seg = meta['preservedSegment'];
  const msgs = meta['preservedMessages'];
  const uuids = isObject(msgs) && Array.isArray(msgs['uuids']) ? msgs['uuids'] : undefined;
  if (uuids) node.preservedUuids = uuids.filter((u): u is string => typeof u === 'string');
  const anchor = (isObject(seg) ? str(seg['anchorUuid']) : undefined) ?? (isObject(msgs) ? str(msgs['anchorUuid']) : undefined);
  if (anchor) node.preservedAnchorUuid = anchor;
  if (!node.preservedUuids && isObject(seg)) {
    const head = str(seg['headUuid']);
    const tail = str(seg['tailUuid']);
    if (head && tail) node.preservedUuids = head === tail ? [head] : [head, tail];
  }
}

/** Reads a `microcompact_boundary`: the tool calls whose results are no longer sent. */
export function readMicroBoundary(r: JsonObject, node: ChainNode): void {
  const meta = r['microcompactMetadata'];
  if (isObject(meta) && Array.isArray(meta['compactedToolIds'])) {
    node.compactedToolIds = meta['compactedToolIds'].filter((u): u is string => typeof u === 'string');
  }
}

/**
 * A main-thread compaction boundary starts a new root: what precedes it is never resumed again,
 * except the messages it preserves. Those earlier records are let go (keeping their usage, and
 * the prompts and boundaries that the history needs), so memory follows the window.
 *
 * Only the records since the settled history are looked at (what an earlier boundary kept for good —
 * prompts, boundaries, side chains — stays as it is), so each record is let go once and a long file
 * costs no more per boundary than a short one. Consecutive usage of one response (a reply written
 * over several records) is kept as one entry, its largest figures, as `responsesOf` would count it.
 */
export function pruneBefore(state: ParseState, boundary: ChainNode): void {
  const keep = new Set(boundary.preservedUuids ?? []);
  const { order, nodes } = state;
  const kept: string[] = [];
  let settled = state.settledHistory;
  for (let i = state.settledHistory; i < order.length; i++) {
    const uuid = order[i] as string;
    const n = nodes.get(uuid);
    if (!n) continue;
    if (n.isSidechain || n.kind === 'prompt' || n.kind === 'compact-boundary') {
      kept.push(uuid);
      // History kept for good: no later boundary needs to look at it again.
      if (kept.length + state.settledHistory - 1 === settled) settled++;
      continue;
    }
    if (keep.has(uuid)) {
      kept.push(uuid);
      continue;
    }
    if (n.kind === 'assistant' && n.usage) keepUsage(state, n);
    nodes.delete(uuid);
    state.prunedRecords++;
  }
  order.length = state.settledHistory;
  for (const uuid of kept) order.push(uuid);
  state.settledHistory = settled;
  for (const [id, call] of state.toolCalls) {
    const used = nodes.has(call.useUuid);
    const answered = call.resultUuid !== undefined && nodes.has(call.resultUuid);
    if (!used && !answered) state.toolCalls.delete(id);
  }
  settleDetails(state);
}

/** The usage of an assistant record let go, merged into the previous entry when it is the same response. */
function keepUsage(state: ParseState, n: ChainNode): void {
  const usage = n.usage as Usage;
  const messageId = n.messageId ?? n.uuid;
  const last = state.prunedUsage[state.prunedUsage.length - 1];
  if (last && last.messageId === messageId && (last.requestId ?? '') === (n.requestId ?? '')) {
    last.usage = maxUsage(last.usage, usage);
    return;
  }
  const model = internModel(state, n.model ?? 'unknown');
  // The usual record as one literal: properties added after the object is made take a separate
  // property array, and a long session keeps tens of thousands of these.
  if (n.requestId && n.timestamp && !n.synthetic) {
    state.prunedUsage.push({ messageId, model, line: n.line, usage, isSidechain: false, requestId: n.requestId, timestamp: n.timestamp });
    return;
  }
  const u: UsageRecord = { messageId, model, line: n.line, usage, isSidechain: false };
  if (n.requestId) u.requestId = n.requestId;
  if (n.timestamp) u.timestamp = n.timestamp;
  if (n.synthetic) u.synthetic = true;
  state.prunedUsage.push(u);
}

/** One string per model name, however many records name it. */
function internModel(state: ParseState, model: string): string {
  const known = state.models.get(model);
  if (known !== undefined) return known;
  state.models.set(model, model);
  return model;
}

/**
 * What precedes a compaction is no longer sent, so the captured text of earlier reads is let go:
 * memory then follows the resident window, not the file. Preserved messages keep theirs.
 */
export function dropCapturedTextBefore(state: ParseState, r: JsonObject): void {
  const meta = r['compactMetadata'];
  const keep = new Set<string>();
  if (isObject(meta) && isObject(meta['preservedMessages'])) {
    const all = meta['preservedMessages']['allUuids'] ?? meta['preservedMessages']['uuids'];
    if (Array.isArray(all)) for (const u of all) if (typeof u === 'string') keep.add(u);
  }
  for (const call of state.toolCalls.values()) {
    if (call.op.kind !== 'read' || call.op.capturedText === undefined) continue;
    if (keep.has(call.useUuid) || (call.resultUuid !== undefined && keep.has(call.resultUuid))) continue;
    const { capturedText: _dropped, ...rest } = call.op;
    call.op = rest;
  }
}
