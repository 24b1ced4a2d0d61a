import type { PayloadCopy } from '@glassbox/core';
import { isObject, str, type JsonObject } from '../record-types';

/**
 * 2.1.33x logs messages it sent that no record holds as they were sent (a tool result with a
 * reminder merged beside it, an edited system turn…) in `api-request-blob` records: whole messages,
 * tool results and tool inputs included. A fork must tombstone those copies too, so their lines are
 * noted by the tool call ids they repeat.
 */
export function notePayloadCopies(copies: Map<string, PayloadCopy[]>, r: JsonObject, copy: PayloadCopy): void {
  const message = r['message'];
  const content = isObject(message) ? message['content'] : undefined;
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (!isObject(block)) continue;
    const id = block['type'] === 'tool_result' ? str(block['tool_use_id']) : block['type'] === 'tool_use' ? str(block['id']) : undefined;
    if (!id) continue;
    const list = copies.get(id);
    if (list) {
      if (!list.some((c) => c.line === copy.line)) list.push(copy);
    } else copies.set(id, [copy]);
  }
}
