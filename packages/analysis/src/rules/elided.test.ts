import { describe, expect, it } from 'vitest';
import { CLASS_REGISTRY, DEFAULT_FORK_CLASSES } from '@glassbox/core';
import { analyzeFile, generatedSession } from '@glassbox/test-support/analysis/fixtures';
import { planEviction } from '../plan';

describe('elided rule', () => {
  const path = generatedSession('03-large-outputs');

  it('runs only when asked for, and is never in the default plan', () => {
    const plain = analyzeFile(path, { protectTail: 0 });
    expect(plain.segments.some((s) => s.class === 'elided')).toBe(false);
    expect(DEFAULT_FORK_CLASSES).not.toContain('elided');
    expect(CLASS_REGISTRY.elided.label).toMatch(/lossy, recoverable/);
  });

  it('marks large old results, never errors, writes, edits, protected or proven-dead ones', () => {
    const snap = analyzeFile(path, { protectTail: 0, elide: { overTokens: 500, keep: { chars: 2000, lines: 40 } } });
    const elided = snap.segments.filter((s) => s.class === 'elided');
    expect(elided.length).toBeGreaterThan(0);
    for (const s of elided) {
      expect(s.kind).toBe('tool-result');
      expect(s.isError).not.toBe(true);
      expect(s.protected).toBe(false);
      expect(['write', 'edit', 'subagent']).not.toContain(s.opKind);
      expect(s.evictableTokens).toBeGreaterThan(500);
    }
    // A proven class keeps what it proved: the same session without elision has the same proven set.
    const proven = (snapshot: typeof snap) => snapshot.segments.filter((s) => s.class !== 'live' && s.class !== 'elided').map((s) => `${s.id}:${s.class}`);
    expect(proven(snap)).toEqual(proven(analyzeFile(path, { protectTail: 0 })));
    // A higher threshold elides fewer results.
    const fewer = analyzeFile(path, { protectTail: 0, elide: { overTokens: 5000, keep: { chars: 2000, lines: 40 } } }).segments.filter((s) => s.class === 'elided');
    expect(fewer.length).toBeLessThan(elided.length);
  });

  it('the protected tail is never elided', () => {
    const all = analyzeFile(path, { protectTail: 1000, elide: { overTokens: 500, keep: { chars: 2000, lines: 40 } } });
    expect(all.segments.filter((s) => s.class === 'elided')).toHaveLength(0);
  });

  it('plans elisions only when the class is chosen, with what they keep counted', () => {
    const snap = analyzeFile(path, { protectTail: 0, elide: { overTokens: 500, keep: { chars: 2000, lines: 40 } } });
    expect(planEviction(snap, { minimumSavings: 0 }).actions.some((a) => a.class === 'elided')).toBe(false);
    const plan = planEviction(snap, { classes: ['elided'], minimumSavings: 0 });
    expect(plan.actions.length).toBeGreaterThan(0);
    for (const a of plan.actions) {
      expect(a.class).toBe('elided');
      expect(a.tombstoneTokens).toBeGreaterThan(0);
      expect(a.tombstoneTokens).toBeLessThan(a.tokensFreed);
    }
  });
});
