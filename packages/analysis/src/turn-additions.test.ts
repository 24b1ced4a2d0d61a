import { describe, expect, it } from 'vitest';
import type { ClassifiedSnapshot } from '@glassbox/core';
import recorded from '../../../fixtures/snapshots/02-gone-drift-errors.json';
import { turnAdditions } from './turn-additions';

// A snapshot the engine made of a real Claude Code session (fixtures/snapshots, kept current by a host test).
const snapshot = recorded as unknown as ClassifiedSnapshot;

describe('what each response added to the window', () => {
  const additions = turnAdditions(snapshot);

  it('has one entry per charted response, and every resident segment before the last response in exactly one', () => {
    expect(additions).toHaveLength(snapshot.turns.length);
    const last = snapshot.turns[snapshot.turns.length - 1]?.line ?? 0;
    const before = snapshot.segments.filter((s) => s.line < last);
    expect(additions.reduce((n, a) => n + a.segments, 0)).toBe(before.length);
    expect(additions.reduce((n, a) => n + a.tokens, 0)).toBe(before.reduce((n, s) => n + s.tokens, 0));
  });

  it('lists the largest additions first, each a segment added between the previous response and this one', () => {
    const byId = new Map(snapshot.segments.map((s) => [s.id, s]));
    let checked = 0;
    // additions with two or more entries, where the order says something
    let ordered = 0;
    for (const a of additions) {
      const from = a.turn === 0 ? -Infinity : (snapshot.turns[a.turn - 1]?.line ?? 0);
      const to = snapshot.turns[a.turn]?.line ?? Infinity;
      for (let i = 0; i < a.largest.length; i++) {
        const seg = byId.get(a.largest[i]?.segmentId ?? '');
        expect(seg).toBeDefined();
        expect(seg?.line).toBeGreaterThanOrEqual(from);
        expect(seg?.line).toBeLessThan(to);
        checked++;
      }
      const tokens = a.largest.map((x) => x.tokens);
      expect(tokens).toEqual([...tokens].sort((x, y) => y - x));
      if (a.largest.length > 1) ordered++;
      expect(a.largest.length).toBeLessThanOrEqual(5);
    }
    expect([checked, ordered]).toEqual([56, 21]);
    // A read tool result is named by its tool and file.
    expect(additions.flatMap((a) => a.largest).some((x) => /^Read .*NOTES\.md$/.test(x.label))).toBe(true);
  });
});
