import type { Recognition } from '@glassbox/core';
import { KNOWN_RECORD_TYPES, isObject } from './record-types';

const CODEX_ENVELOPE = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/**
 * A Claude Code transcript is JSON lines whose records have a `type` the client writes (user,
 * assistant, summary, last-prompt, …). One such record among the first lines decides; JSON objects
 * that are none of them decide the other way; anything else (blank, unparsable) cannot tell.
 */
export function recogniseClaudeCode(head: readonly string[]): Recognition {
  let objects = 0;
  for (const text of head) {
    if (text.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(v)) continue;
    objects++;
    // Gemini CLI's chat log opens with a session record (sessionId and projectHash, no type) and then
    // holds `user` messages: named, so that its `type: user` records are not taken for Claude Code's.
    if (typeof v['projectHash'] === 'string' && typeof v['sessionId'] === 'string' && v['type'] === undefined) return { verdict: 'no', what: 'a Gemini CLI chat' };
    const type = v['type'];
    if (typeof type === 'string' && KNOWN_RECORD_TYPES.has(type) && !('payload' in v)) return { verdict: 'yes' };
    // Codex CLI's envelope ({timestamp, type, payload}): named, so a drop is told what it is.
    if (typeof type === 'string' && 'payload' in v && CODEX_ENVELOPE.has(type)) return { verdict: 'no', what: 'a Codex CLI rollout' };
  }
  return objects > 0 ? { verdict: 'no' } : { verdict: 'unknown' };
}
