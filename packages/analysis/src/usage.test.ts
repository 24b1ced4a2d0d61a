import { describe, expect, it } from 'vitest';
import { maxUsage, type Session, type UsageRecord } from '@glassbox/core';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { generatedSession } from '@glassbox/test-support/analysis/fixtures';
import { responseKey, responsesOf } from './usage';

/** What responsesOf counted before it kept records as they are: one copy per key string, merged by the largest usage. */
function byKeyStrings(session: Session): UsageRecord[] {
  const byKey = new Map<string, UsageRecord>();
  const add = (r: UsageRecord): void => {
    const prev = byKey.get(responseKey(r));
    if (prev) prev.usage = maxUsage(prev.usage, r.usage);
    else byKey.set(responseKey(r), { ...r });
  };
  for (const p of session.prunedUsage) add(p);
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    if (!n || n.kind !== 'assistant' || !n.usage) continue;
    const r: UsageRecord = { messageId: n.messageId ?? n.uuid, model: n.model ?? 'unknown', line: n.line, usage: n.usage, isSidechain: n.isSidechain };
    if (n.requestId) r.requestId = n.requestId;
    if (n.timestamp) r.timestamp = n.timestamp;
    if (n.synthetic) r.synthetic = true;
    add(r);
  }
  return [...byKey.values()];
}

describe('responsesOf on real sessions that compacted', () => {
  // Two compactions: most responses are records the parser let go (prunedUsage), the rest in the window.
  const { session } = loadSessionWithSubagents(generatedSession('15-autocompact-twice'));

  it('counts what key strings and copies counted, in the same order', () => {
    expect(session.prunedUsage.length).toBeGreaterThan(0);
    expect(responsesOf(session)).toEqual(byKeyStrings(session));
  });

  it('returns a let-go record as it is, and merges a repeated one on a copy', () => {
    // A resumed copy of the history repeats responses far apart: the first and the last pruned record again.
    const first = session.prunedUsage[0] as UsageRecord;
    const last = session.prunedUsage[session.prunedUsage.length - 1] as UsageRecord;
    const bigger = { ...first.usage, outputTokens: first.usage.outputTokens + 1000 };
    const again: UsageRecord = { ...first, line: 99_999, usage: bigger };
    const otherRequest: UsageRecord = { ...last, requestId: `${last.requestId ?? ''}-other`, line: 99_998 };
    const copied: Session = { ...session, prunedUsage: [...session.prunedUsage, again, otherRequest] };
    const before = structuredClone(copied.prunedUsage);

    const out = responsesOf(copied);
    expect(out).toEqual(byKeyStrings(copied));
    const merged = out.find((r) => r.messageId === first.messageId && r.requestId === first.requestId);
    expect(merged?.usage.outputTokens).toBe(bigger.outputTokens);
    expect(merged?.line).toBe(first.line);
    expect(merged).not.toBe(first);
    // The same message id with another request id is another response.
    expect(out.filter((r) => r.messageId === last.messageId)).toHaveLength(2);
    expect(out).toContain(last);
    // Nothing of the session's own records changed.
    expect(copied.prunedUsage).toEqual(before);
  });
});
