import { describe, expect, it } from 'vitest';
import { analyzeFile, generatedSession } from '@glassbox/test-support/analysis/fixtures';

describe('spent', () => {
  it('marks spent only when asked, always as inferred', () => {
    const plain = analyzeFile(generatedSession('03-large-outputs'), { protectTail: 0 });
    expect(plain.segments.some((s) => s.class === 'spent')).toBe(false);
    const spent = analyzeFile(generatedSession('03-large-outputs'), { protectTail: 0, withInferred: true });
    const marked = spent.segments.filter((s) => s.class === 'spent');
    expect(marked.length).toBeGreaterThan(0);
    for (const s of marked) expect(s.proof).toMatchObject({ class: 'spent', inferred: true });
    expect(spent.classes.inferred).toEqual(['spent', 'elided']);
    // Asking for spent never asks for elision.
    expect(spent.classes.enabled).not.toContain('elided');
    expect(spent.segments.some((s) => s.class === 'elided')).toBe(false);
  });
});
