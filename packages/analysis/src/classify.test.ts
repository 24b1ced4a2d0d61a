import { describe, expect, it } from 'vitest';
import { planEviction } from './plan';
import { analyzeFile, generatedSession, projectAfter } from '@glassbox/test-support/analysis/fixtures';

describe('never evicted', () => {
  it('keeps error results, prose, thinking and the compaction summary live and protected', () => {
    const snap = analyzeFile(generatedSession('02-gone-drift-errors'), {
      repoRoot: projectAfter('02-gone-drift-errors'),
      withInferred: true,
      protectTail: 0,
    });
    const errors = snap.segments.filter((s) => s.isError);
    expect(errors.length).toBeGreaterThanOrEqual(5);
    for (const e of errors) {
      expect(e.class).toBe('live');
      expect(e.protected).toBe(true);
    }
    const compacted = analyzeFile(generatedSession('04-subagent-compact-multiturn'), { protectTail: 0 });
    const summary = compacted.segments.find((s) => s.kind === 'compact-summary');
    expect(summary?.protected).toBe(true);
    for (const s of compacted.segments.filter((x) => x.kind === 'thinking' || x.kind === 'assistant-text' || x.kind === 'prompt')) {
      expect(s.class).toBe('live');
    }
  });

  it('protects the last exchanges from the plan', () => {
    const snap = analyzeFile(generatedSession('01-superseded-reads'), { protectTail: 1000 });
    const plan = planEviction(snap);
    expect(plan.actions).toEqual([]);
    expect(plan.reasons.map((r) => r.code)).toContain('all_protected');
  });
});

describe('tombstone text', () => {
  it('names what was removed: a read with its range, or another tool\'s result', async () => {
    const { planEviction: plan } = await import('./plan');
    const snap = analyzeFile(generatedSession('01-superseded-reads'), { protectTail: 0 });
    const actions = plan(snap, { minimumSavings: 0 }).actions;
    const read = actions.find((a) => a.line === 14);
    expect(read?.tombstone).toMatch(/^\[glassbox: removed a read of src\/inventory\.py whole file \(stale-superseded: the later read on line 44/);
    const edit = actions.find((a) => a.line === 25);
    expect(edit?.tombstone).toContain('removed the Edit result for src/inventory.py (duplicate: an identical copy is kept on line 40)');
  });
});
