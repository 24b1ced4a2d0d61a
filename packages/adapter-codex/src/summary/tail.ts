import type { SummaryState } from '@glassbox/core';
import { ASSISTANT_ITEMS } from '../item-kinds';
import { isObject, parseObject, str, type JsonObject } from '../json';
import { threadName } from '../thread-name';
import { parseTokenCount } from '../usage';
import { recordHead } from '../record-head';
import { readExt, writeExt } from './state-ext';

/**
 * Reads a rollout's closing lines (in file order) into a state that so far knows only the file's
 * head: the newest timestamp, the latest thread name, and the window's reported context. The context
 * follows the summary's own rule (summarizer.ts), replayed forward from the first token count in the
 * lines: from there the running total is known, so repeated counts are skipped as the parser skips
 * them; whether the reply open at that point had items is not known, so its count decides nothing.
 * True when the context was decided (a count attached to items of its reply, or a compaction);
 * otherwise the caller may read further back.
 */
export function readTail(lines: readonly string[], state: SummaryState): boolean {
  const ext = readExt(state);
  let synced = false;
  let lastCumulative: number | null = null;
  let group: 'unknown' | 'open' | 'closed' = 'unknown';
  let items = 0;
  let decided = false;
  let context: number | null = null;
  let contextModel: string | null = null;
  let model: string | null = null;
  for (const text of lines) {
    const head = recordHead(text);
    if (head?.timestamp && (state.lastTs === null || head.timestamp > state.lastTs)) state.lastTs = head.timestamp;
    if (!head) continue;
    const type = head.type;
    if (type === 'response_item') {
      if (!synced || !isAssistantItem(head.sub, text)) continue;
      if (group !== 'open') items = 0;
      group = 'open';
      items++;
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
      if (!synced || (!Array.isArray(p['replacement_history']) && ext.generation === 'paginated')) continue;
      decided = true;
      context = null;
      contextModel = null;
      items = 0;
      if (group === 'unknown') group = 'closed';
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
      if (group === 'open' && items > 0 && tc.last.input > 0) {
        decided = true;
        context = tc.last.input;
        contextModel = model;
      }
      group = 'closed';
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
