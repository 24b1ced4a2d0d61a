import { describe, expect, it } from 'vitest';
import { planEviction } from '../plan';
import { analyzeFile, generatedSession, projectAfter, results, variantOf } from '@glassbox/test-support/analysis/fixtures';

describe('duplicate', () => {
  const session = generatedSession('01-superseded-reads');

  it('marks earlier byte-identical outputs duplicate and keeps the latest', () => {
    const snap = analyzeFile(session);
    const dups = results(snap).filter((s) => s.class === 'duplicate');
    expect(dups.map((s) => s.line)).toEqual([25, 36]);
    for (const d of dups) {
      if (d.proof?.class !== 'duplicate') throw new Error('expected a duplicate proof');
      expect(d.proof.kept.line).toBe(40);
      expect(d.proof.hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('does not call outputs that differ by one byte duplicates', () => {
    const variant = variantOf(session, (lines) => {
      // The kept copy (line 40) gets one byte changed; line 25 and 36 stay identical to each other.
      lines[39] = (lines[39] ?? '').replace('has been updated successfully', 'has been updated successfullY');
      return lines;
    });
    const snap = analyzeFile(variant);
    const line40 = results(snap).find((s) => s.line === 40);
    expect(line40?.class).toBe('live');
    const line25 = results(snap).find((s) => s.line === 25);
    if (line25?.proof?.class !== 'duplicate') throw new Error('expected a duplicate proof');
    expect(line25.proof.kept.line).toBe(36);
  });
});

describe('a session written to test duplicates and ranges (08)', () => {
  const session = generatedSession('08-duplicates-and-ranges');
  const snap = analyzeFile(session, { repoRoot: projectAfter('08-duplicates-and-ranges') });
  const bash = results(snap).filter((s) => s.source.type === 'command' && s.tokens > 500);

  it('tombstones the earlier of two identical large outputs, and keeps the one that differs by a byte', () => {
    expect(bash).toHaveLength(3);
    const [first, second, third] = bash;
    expect(first?.class).toBe('duplicate');
    if (first?.proof?.class !== 'duplicate') throw new Error('expected a duplicate proof');
    expect(first.proof.kept.segmentId).toBe(second?.id);
    expect(second?.class).toBe('live');
    expect(third?.class).toBe('live');
    expect(planEviction(snap).actions.map((a) => a.segmentId)).toEqual([first.id]);
  });

  it('does not call a file changed and changed back (by the session itself) drift', () => {
    const config = results(snap).find((s) => s.source.label === 'src/config.json');
    expect(config?.class).toBe('live');
  });

  it('keeps two partial reads of different ranges of one file', () => {
    const reads = results(snap).filter((s) => s.source.label === 'src/inventory.py');
    expect(reads).toHaveLength(2);
    for (const r of reads) expect(r.class).toBe('live');
  });
});
