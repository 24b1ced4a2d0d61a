import type { SummaryState } from '@glassbox/core';
import { ASSISTANT_ITEMS } from '../item-kinds';
import { isObject, parseObject, str, type JsonObject } from '../json';
import { threadName } from '../thread-name';
import { inheritedRecord, type InheritedState } from '../inherited';
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
  // A copied parent history the head pass was inside when it stopped (inherited.ts).
  let copy: InheritedState | null = ext.inherited.mode === 'copy' ? { ...ext.inherited } : null;
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
    // A forked thread's copy of its parent's history (inherited.ts): the parent's usage, not the thread's.
    if (ext.inherited.mode === 'ordinal' && head.ordinal !== null && ext.inherited.before !== null && head.ordinal < ext.inherited.before) continue;
    const type = head.type;
    if (copy) {
      // Inside a copied parent history (its start in the head): nothing counts before its end marker.
      if (type === 'response_item' && head.sub === 'function_call_output') {
        const r = parseObject(text);
        const p = r && isObject(r['payload']) ? r['payload'] : null;
        if (inheritedRecord(copy, { type, payload: p }).ended) copy = null;
      }
      if (copy && type === 'event_msg' && head.sub === 'token_count') {
        const r = parseObject(text);
        const tc = r && isObject(r['payload']) ? parseTokenCount(r['payload']) : null;
        if (tc?.cumulativeTotal != null) {
          synced = true;
          lastCumulative = tc.cumulativeTotal;
        }
      }
      continue;
    }
    if (type === 'response_item') {
      // 2026: a reply's items come before its count, so items before the first count are its reply's.
      if ((synced || !countFirst) && isAssistantItem(head.sub, text)) apply(replyItem(replies, countFirst));
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
        // A running total that is this request's alone: the thread's first request, which repeats
        // nothing (2026 rollouts, where a count follows its reply's items). Anything else only syncs.
        const first = !countFirst && tc.cumulativeTotal !== null && tc.cumulativeTotal === tc.last.total && tc.last.input > 0;
        if (first) apply(replyCount(replies, tc.last.input, countFirst));
        // Only a sync: the reply it closed is not known.
        else Object.assign(replies, initialReplies(false));
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
