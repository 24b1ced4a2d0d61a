import { describe, expect, it } from 'vitest';
import type { ClassifiedSnapshot } from '@glassbox/core';
import recorded from '../../../fixtures/snapshots/02-gone-drift-errors.json';
import { deadRows, stepDead } from './dead-list';

const snapshot = recorded as unknown as ClassifiedSnapshot;

describe('What to remove', () => {
  const rows = deadRows(snapshot);

  it('lists every unprotected dead segment of a real session, largest first, file name first with its proof', () => {
    const proven = new Set(['gone', 'stale-drift', 'stale-superseded', 'duplicate']);
    const expected = snapshot.segments.filter((s) => proven.has(s.class) && !s.protected && s.evictableTokens > 0);
    expect(rows.map((r) => r.id).sort()).toEqual(expected.map((s) => s.id).sort());
    // Inferred "spent" only when asked for.
    expect(deadRows(snapshot, ['spent']).every((r) => r.cls === 'spent')).toBe(true);
    expect(rows.length).toBeGreaterThan(2);
    expect(new Set(rows.map((r) => r.cls))).toEqual(new Set(['gone', 'stale-drift', 'stale-superseded', 'duplicate']));
    for (let i = 1; i < rows.length; i++) expect((rows[i - 1] as { tokens: number }).tokens).toBeGreaterThanOrEqual((rows[i] as { tokens: number }).tokens);
    const gone = rows.find((r) => r.cls === 'gone');
    expect(gone?.proof).toMatch(/^gone: .* no longer exists/);
    expect(gone?.name).not.toContain('/');
  });

  it('steps forwards and backwards through them, wrapping, from the selection', () => {
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    expect(stepDead(rows, null, false)?.id).toBe(first.id);
    expect(stepDead(rows, null, true)?.id).toBe(last.id);
    expect(stepDead(rows, first.id, false)?.id).toBe(rows[1]?.id);
    expect(stepDead(rows, first.id, true)?.id).toBe(last.id);
    expect(stepDead(rows, last.id, false)?.id).toBe(first.id);
    expect(stepDead([], null, false)).toBeNull();
  });
});
