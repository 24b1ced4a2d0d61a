// Codex's `compacted` records, as compaction events for the x-ray (core's CompactionEvent): where each
// one is, what it replaced (the window's last item before it), what its replacement history kept
// verbatim and where the summary is. The window before is rebuilt on demand by parsing up to the line.
import type { ChainNode, CompactionEvent } from '@glassbox/core';
import { isObject, num, parseObject, str, type Json, type JsonObject } from './json';
import { utf8Bytes } from './hash';

/** What a rollout's compactions are, as the parse goes. */
export interface CodexCompactions {
  events: CompactionEvent[];
  /** The message ids (`msg_…`) of the window's items, to the node each is: what a replacement history can name. */
  messageIds: Map<string, string>;
  /** The last event still waiting for the first reply after it. */
  awaitingReply: CompactionEvent | null;
}

export function newCodexCompactions(): CodexCompactions {
  return { events: [], messageIds: new Map(), awaitingReply: null };
}

/** Notes a window item's message id (only messages can be retained across a compaction). */
export function noteMessage(track: CodexCompactions, item: JsonObject, node: ChainNode): void {
  const id = str(item['id']);
  if (id && str(item['type']) === 'message') track.messageIds.set(id, node.uuid);
}

/** The first model reply after a compaction: what the first request after it carried ends at its parent. */
export function noteReply(track: CodexCompactions, node: ChainNode): void {
  const e = track.awaitingReply;
  if (!e || node.kind !== 'assistant') return;
  e.firstResponse = { uuid: node.uuid, line: node.line, parentUuid: node.parentUuid };
  track.awaitingReply = null;
}

/**
 * The event of one `compacted` record, made before the window is let go (`leafBefore` is the window's
 * last item). Codex writes no trigger (it compacts near the limit and on `/compact` alike), so the
 * trigger is `unknown`. The size before is the compaction request's own input (`latest_token_usage_record`,
 * when its response is the compaction's): the whole window the model summarised.
 */
export function compactionEvent(
  track: CodexCompactions,
  p: JsonObject,
  where: { uuid: string; line: number; offset: number; length: number; timestamp?: string; leafBefore: string | null },
  summaryIndex: number | null,
): CompactionEvent {
  const history = Array.isArray(p['replacement_history']) ? p['replacement_history'] : [];
  const meta = Array.isArray(p['replacement_history_metadata']) ? p['replacement_history_metadata'] : [];
  const preserved: string[] = [];
  const kept = new Map<string, string>();
  history.forEach((entry: Json, i) => {
    const source = retainedMessageId(meta[i]);
    const before = source ? track.messageIds.get(source) : undefined;
    if (before) preserved.push(before);
    // The next compaction's window holds the entry as the replacement history's item.
    const id = isObject(entry) ? str(entry['id']) : null;
    if (id) kept.set(id, `${where.uuid}.${i}`);
    if (source && source !== id) kept.set(source, `${where.uuid}.${i}`);
  });
  const message = str(p['message']) ?? '';
  const summaryEntry = summaryIndex !== null ? history[summaryIndex] : undefined;
  const summaryBytes = isObject(summaryEntry) ? utf8Bytes(JSON.stringify(summaryEntry['content'] ?? '')) : utf8Bytes(message);
  const event: CompactionEvent = {
    uuid: where.uuid,
    line: where.line,
    isSidechain: false,
    trigger: 'unknown',
    leafBefore: where.leafBefore,
    preTokensMetadata: compactionInput(p),
    postTokensMetadata: null,
    preserved,
    summary: {
      uuid: summaryIndex !== null ? `${where.uuid}.${summaryIndex}` : `${where.uuid}.summary`,
      line: where.line,
      offset: where.offset,
      length: where.length,
      bytes: message ? utf8Bytes(message) : summaryBytes,
    },
    reattached: [],
    firstResponse: null,
  };
  if (where.timestamp) event.timestamp = where.timestamp;
  track.events.push(event);
  track.messageIds = kept;
  track.awaitingReply = event;
  return event;
}

function retainedMessageId(meta: Json | undefined): string | null {
  if (!isObject(meta) || !isObject(meta['retained_source'])) return null;
  const id = meta['retained_source']['id'];
  return isObject(id) ? (str(id['message_id']) ?? null) : null;
}

function compactionInput(p: JsonObject): number | null {
  const record = p['latest_token_usage_record'];
  if (!isObject(record) || !isObject(record['usage'])) return null;
  const own = str(p['compaction_response_id']);
  if (own && str(record['response_id']) !== own) return null;
  return num(record['usage']['input_tokens']) ?? null;
}

/** Codex's wording around the summary it sends the model (the first line of `compacted.message`). */
const SUMMARY_LEAD = 'use the information in this summary to assist with your own analysis:\n';

/** The summary the model wrote, from the `compacted` record's line: Codex's lead-in removed. */
export function codexCompactionSummary(line: string): string | null {
  const record = parseObject(line);
  if (!record) return null;
  const p = isObject(record['payload']) ? record['payload'] : record;
  const message = str(p['message']);
  if (message === undefined) return null;
  const at = message.indexOf(SUMMARY_LEAD);
  return at >= 0 ? message.slice(at + SUMMARY_LEAD.length) : message;
}
