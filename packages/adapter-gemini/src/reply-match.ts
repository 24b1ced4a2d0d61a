import { isObject, type ChainNode, type JsonObject, type UsageRecord } from '@glassbox/core';
import { partsOf, partsText } from './parts';
import type { PlacedMessage } from './records';

/** What identifies a reply across a history rewrite that gave it a new id: its calls, else its text. */
export interface ReplySignature {
  /** The ids of its calls (`toolCalls[].id`, or `functionCall.id` parts): the client keeps them in every rewrite. */
  calls: string[];
  /** Its text (thoughts left out), for a reply without calls. */
  text: string;
}

export function replySignature(message: JsonObject): ReplySignature {
  const calls = new Set<string>();
  const recorded = message['toolCalls'];
  if (Array.isArray(recorded)) for (const c of recorded) if (isObject(c) && typeof c['id'] === 'string') calls.add(c['id']);
  const content = message['content'];
  const parts = partsOf(content);
  for (const p of parts) {
    const fc = p['functionCall'];
    if (isObject(fc) && typeof fc['id'] === 'string') calls.add(fc['id']);
  }
  const text = typeof content === 'string' ? content : partsText(parts.filter((p) => p['thought'] !== true));
  return { calls: [...calls], text: text.trim() };
}

/**
 * Usage for the window's replies that have none because a full replace re-wrote them under new ids
 * (0.61's output masking and compression do): each is matched to a reply the log recorded with
 * tokens and that no window reply has claimed — by a call id they share, else, for a reply without
 * calls, by the same text, the earliest first. Each recorded reply is given at most once. Returns the
 * matches (window node → recorded usage); nothing is changed.
 */
export function matchRewrittenReplies(
  nodes: ReadonlyMap<string, ChainNode>,
  history: readonly PlacedMessage[],
  recorded: readonly UsageRecord[],
  signatures: ReadonlyMap<string, ReplySignature>,
  claimed: ReadonlySet<string>,
): Map<string, UsageRecord> {
  const out = new Map<string, UsageRecord>();
  const free = recorded.filter((u) => !claimed.has(u.messageId));
  if (free.length === 0) return out;
  const byCall = new Map<string, UsageRecord>();
  for (const u of free) for (const c of signatures.get(u.messageId)?.calls ?? []) if (!byCall.has(c)) byCall.set(c, u);
  const taken = new Set<string>();
  for (const pm of history) {
    const n = nodes.get(pm.id);
    if (!n || n.kind !== 'assistant' || n.usage) continue;
    const sig = replySignature(pm.message);
    let u = sig.calls.map((c) => byCall.get(c)).find((x) => x !== undefined && !taken.has(x.messageId));
    if (!u && sig.calls.length === 0 && sig.text !== '') {
      u = free.find((x) => !taken.has(x.messageId) && (signatures.get(x.messageId)?.calls.length ?? 0) === 0 && signatures.get(x.messageId)?.text === sig.text);
    }
    if (!u) continue;
    taken.add(u.messageId);
    out.set(n.uuid, u);
  }
  return out;
}
