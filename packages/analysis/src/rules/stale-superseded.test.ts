import { describe, expect, it } from 'vitest';
import { analyzeFile, byLine, classOf, generatedSession, projectAfter } from '@glassbox/test-support/analysis/fixtures';

describe('stale-superseded', () => {
  const session = generatedSession('01-superseded-reads');
  const snap = analyzeFile(session, { repoRoot: projectAfter('01-superseded-reads') });

  it('marks older full reads of a file covered by a later full read, naming the later read', () => {
    expect(classOf(snap, 14)).toBe('stale-superseded');
    expect(classOf(snap, 28)).toBe('stale-superseded');
    const proof = byLine(snap, 14)[0]?.proof;
    if (proof?.class !== 'stale-superseded') throw new Error('expected a superseded proof');
    expect(proof.by.kind).toBe('read');
    expect(proof.by.line).toBe(44);
    expect(proof.range).toEqual({ startLine: 1, endLine: 40, full: true });
  });

  it('never lets a partial read supersede a read of another range, nor a later read be superseded by an earlier one', () => {
    // Line 47 is a partial read (lines 1-30) after the full read at 44: neither supersedes the other.
    expect(classOf(snap, 44)).toBe('live');
    expect(classOf(snap, 47)).toBe('live');
  });

  it('treats an Edit as a change, not a read: the edit input is superseded only by a later full read', () => {
    const edit = byLine(snap, 38).find((s) => s.kind === 'tool-input');
    expect(edit?.class).toBe('stale-superseded');
    expect(edit?.evictableTokens).toBeLessThan(edit?.tokens ?? 0);
    // The unchanged re-read (file_unchanged) carries no content and proves nothing.
    expect(classOf(snap, 32)).toBe('live');
  });
});
