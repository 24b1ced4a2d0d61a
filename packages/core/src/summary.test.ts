import { describe, expect, it } from 'vitest';
import { SUMMARY_STATE_VERSION, emptySummaryState, isResumableState } from './summary';

describe('summary checkpoints', () => {
  it('are resumed only by the agent that wrote them, at the current version', () => {
    const s = emptySummaryState('claude-code', false);
    expect(isResumableState(s, 'claude-code')).toBe(true);
    expect(isResumableState(s, 'codex')).toBe(false);
    expect(isResumableState({ ...s, v: SUMMARY_STATE_VERSION - 1 }, 'claude-code')).toBe(false);
    // A checkpoint of the first index format (no agent, titles at the top level) is read again from the start.
    expect(isResumableState({ v: 1, subagentFile: false, aiTitle: 'x', totals: {}, recent: [] }, 'claude-code')).toBe(false);
    expect(isResumableState(null, 'claude-code')).toBe(false);
  });

  it('start empty, JSON-serialisable', () => {
    const s = emptySummaryState('codex', true);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s.totals.apiMessages).toBe(0);
    expect(s.subagentFile).toBe(true);
  });
});
