import type { SummaryState } from '@glassbox/core';
import { ASSISTANT_ITEMS } from '../item-kinds';
import { isObject, parseObject, str, type JsonObject } from '../json';
import { threadName } from '../thread-name';
import { parseTokenCount } from '../usage';
import { recordHead } from '../record-head';
import { readExt, writeExt } from './state-ext';
import { initialReplies, replyCompaction, replyCount, replyItem, type ContextChange } from './replies';

/**
 * Reads a rollout's closing lines (in file order) into a state that so far knows only the file's
 * head: the newest timestamp, the latest thread name, and the window's reported context. The context
 * follows the summary's own rule (replies.ts), replayed forward from the first token count in the
 * lines: from there the running total is known, so repeated counts are skipped as the parser skips
 * them; where the reply stood at that point is not known, so what depends on it decides nothing.
 * True when the context was decided (usage given to items of its reply, or a compaction); otherwise
 * the caller may read further back.
 */
export function readTail(lines: readonly string[], state: SummaryState): boolean {
  const ext = readExt(state);
  const countFirst = ext.generation === 'envelope';
  const replies = initialReplies(false);
  let synced = false;
  let lastCumulative: number | null = null;
  let decided = false;
  let context: number | null = null;
  let contextModel: string | null = null;
  let model: string | null = null;
  const apply = (change: ContextChange | null): void => {
    if (!change) return;
    decided = true;
    context = change.context;
    contextModel = change.context === null ? null : model;
  };
  for (const text of lines) {
    const head = recordHead(text);
    if (head?.timestamp && (state.lastTs === null || head.timestamp > state.lastTs)) state.lastTs = head.timestamp;
    if (!head) continue;
    const type = head.type;
    if (type === 'response_item') {
      if (synced && isAssistantItem(head.sub, text)) apply(replyItem(replies, countFirst));
      continue;
    }
    const relevant = type === 'turn_context' || type === 'compacted' || (type === 'event_msg' && (head.sub === 'token_count' || head.sub === 'thread_name_updated'));
    if (!relevant) continue;
    const r = parseObject(text);
    const p = r && isObject(r['payload']) ? r['payload'] : null;
    if (!p) continue;
    if (type === 'turn_context') model = str(p['model']) ?? model;
    else if (head.sub === 'thread_name_updated') ext.threadName = threadName(p);
    else if (type === 'compacted') {
      if (synced && (Array.isArray(p['replacement_history']) || ext.generation !== 'paginated')) apply(replyCompaction(replies, countFirst));
    } else {
      const tc = parseTokenCount(p);
      if (!tc) continue;
      if (!synced) {
        synced = true;
        lastCumulative = tc.cumulativeTotal;
        continue;
      }
      if (tc.cumulativeTotal !== null && tc.cumulativeTotal === lastCumulative) continue;
      lastCumulative = tc.cumulativeTotal ?? lastCumulative;
      if (tc.last.input === 0 && tc.last.output === 0) continue;
      apply(replyCount(replies, tc.last.input, countFirst));
    }
  }
  if (decided) {
    state.contextTokens = context;
    state.lastModel = context === null ? null : (contextModel ?? (ext.model !== 'unknown' ? ext.model : null));
  }
  writeExt(state, ext);
  state.title = ext.threadName;
  return decided;
}

/** Assistant items are known from their head; a message needs its role. */
function isAssistantItem(sub: string | null, text: string): boolean {
  if (sub === 'message') {
    const r: JsonObject | null = parseObject(text);
    const p = r && isObject(r['payload']) ? r['payload'] : null;
    return p?.['role'] === 'assistant';
  }
  return sub !== null && ASSISTANT_ITEMS.has(sub);
}
