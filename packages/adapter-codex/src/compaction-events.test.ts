import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRolloutFile } from './node/read-file';
import { codexCompactionSummary } from './compaction-events';
import { firstRollout } from '@glassbox/test-support/codex/corpus';

describe('compaction events of a real rollout (two `compacted` records)', () => {
  const path = firstRollout('03-long-session-compaction');
  const s = readRolloutFile(path);
  const events = s.compactions ?? [];
  const lines = readFileSync(path, 'utf8').split('\n');

  it('finds each compaction where the rollout wrote it, with the size the compaction request read', () => {
    expect(events.map((e) => [e.uuid, e.line, e.trigger])).toEqual([['L63', 63, 'unknown'], ['L158', 158, 'unknown']]);
    // `latest_token_usage_record` of the compaction's own response: the window the model summarised.
    expect(events.map((e) => e.preTokensMetadata)).toEqual([23288, 10997]);
    expect(events[0]?.timestamp).toBe('2026-12-01T03:03:26.596Z');
  });

  it('names the last item each one replaced and the first reply after it', () => {
    const [first, second] = events;
    // The last item before line 63 is the reply at line 60; before line 158, an item after line 63.
    expect(first?.leafBefore).toBe('L60');
    expect(Number(second?.leafBefore?.slice(1))).toBeGreaterThan(63);
    expect(first?.firstResponse?.line).toBeGreaterThan(63);
    expect(first?.firstResponse?.line).toBeLessThan(158);
  });

  it('keeps what the replacement history retained verbatim, by the message ids Codex names', () => {
    const [first, second] = events;
    // The first prompt is retained by both: at line 8 before the first, as the history's item after it.
    expect(first?.preserved).toEqual(['L8']);
    expect(second?.preserved).toContain('L63.2');
    expect(second?.preserved).toHaveLength(2);
  });

  it('points at the summary, read back without Codex lead-in', () => {
    const e = events[0];
    expect(e?.summary?.line).toBe(63);
    const text = codexCompactionSummary(lines[62] as string);
    expect(text).toMatch(/^Summary of the work so far/);
    expect(e?.summary?.bytes).toBeGreaterThan(text?.length ?? 0);
  });
});
