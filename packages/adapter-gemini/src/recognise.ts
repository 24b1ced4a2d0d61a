import { isObject, parseObject, type JsonObject, type Recognition } from '@glassbox/core';

/** A `checkpoints/` file: the restore point the interactive client makes before a file edit (`/restore`). */
export const RESTORE_POINT = 'a Gemini CLI restore point (checkpoints/, for /restore), not a session chat';
/** A `checkpoint-<tag>.json` file: a conversation saved with `/chat save <tag>`. */
export const SAVED_CHAT = 'a conversation saved with Gemini CLI’s /chat save (checkpoint-<tag>.json), not a session chat';

/** What the first record or lines of a file say it is. */
export type FirstLook =
  | { kind: 'log' }
  | { kind: 'document' }
  | { kind: 'other'; what?: string }
  | { kind: 'unknown' };

/**
 * A Gemini CLI chat by content, whatever its name: a JSONL log starts with its session record
 * (`sessionId` and `projectHash`, no `type`); a chat document is one object with those keys and a
 * `messages` list — pretty-printed (its first line is `{`, its next ones `"sessionId": …`), or on one
 * line. Claude Code records also carry a `sessionId`, never a `projectHash`.
 */
export function firstLook(head: readonly string[]): FirstLook {
  const lines = head.filter((l) => l.trim() !== '');
  const first = lines[0];
  if (first === undefined) return { kind: 'unknown' };
  if (first.trim() === '{') {
    const keys = lines.slice(1, 8).map((l) => /^\s*"([^"]+)"\s*:/.exec(l)?.[1]).filter((k): k is string => k !== undefined);
    if (keys.includes('sessionId') && keys.includes('projectHash')) return { kind: 'document' };
    // The client's other files of this shape (both `JSON.stringify(…, null, 2)`; checkpointUtils.ts, logger.ts).
    if (keys[0] === 'history' && /^\s*"(clientHistory|toolCall|commitHash)"\s*:/m.test(lines.join('\n'))) return { kind: 'other', what: RESTORE_POINT };
    if (keys[0] === 'history') return { kind: 'other', what: SAVED_CHAT };
    if (keys.length > 0) return { kind: 'other', what: 'a JSON document that is not a Gemini CLI chat' };
    return { kind: 'unknown' };
  }
  // Older `/chat save` files are the bare history: a list of `{role, parts}`.
  if (first.trim() === '[' && lines[1]?.trim() === '{' && /^\s*"(role|parts)"\s*:/.test(lines[2] ?? '')) return { kind: 'other', what: SAVED_CHAT };
  const r = parseObject(first);
  if (!r) {
    // A long first record cut by the caller's head, or a torn line: look for the session keys.
    if (/^\{"sessionId":"[^"]*","projectHash":"/.test(first)) return { kind: 'log' };
    return { kind: 'unknown' };
  }
  return lookAt(r);
}

function lookAt(r: JsonObject): FirstLook {
  const gemini = typeof r['sessionId'] === 'string' && typeof r['projectHash'] === 'string';
  if (gemini && Array.isArray(r['messages'])) return { kind: 'document' };
  if (gemini && r['type'] === undefined) return { kind: 'log' };
  if (typeof r['type'] === 'string' && (typeof r['uuid'] === 'string' || typeof r['sessionId'] === 'string' || r['type'] === 'summary')) return { kind: 'other', what: 'a Claude Code transcript' };
  if (typeof r['type'] === 'string' && isObject(r['payload'])) return { kind: 'other', what: 'a Codex CLI rollout' };
  if (r['type'] === 'session_meta' || (typeof r['id'] === 'string' && typeof r['instructions'] === 'string')) return { kind: 'other', what: 'a Codex CLI rollout' };
  return { kind: 'other' };
}

export function recogniseGemini(head: readonly string[]): Recognition {
  const look = firstLook(head);
  if (look.kind === 'log' || look.kind === 'document') return { verdict: 'yes' };
  if (look.kind === 'unknown') return { verdict: 'unknown' };
  return look.what ? { verdict: 'no', what: look.what } : { verdict: 'no' };
}
