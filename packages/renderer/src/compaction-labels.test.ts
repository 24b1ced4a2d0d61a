import { expect, it } from 'vitest';
import { beforeFigure, compactionChip, compactionCount, markerLabelsThatFit } from './compaction-labels';

it('one count, in the CLI\'s words, with the branches the live conversation does not reach', () => {
  expect(compactionCount({ boundaries: 6, compactions: [1, 2, 3], unreached: [1, 2, 3] })).toBe('6 compactions: 3 on the live conversation, 3 not reached by it');
  expect(compactionCount({ boundaries: 2, compactions: [1, 2], unreached: [] })).toBe('2 compactions, all on the live conversation');
  expect(compactionCount({ boundaries: 0, compactions: [], unreached: [] })).toBe('No compaction');
});

it('never "kept 0%" for a window of 0 of 0', () => {
  expect(compactionChip({ xray: { index: 1, trigger: 'auto' }, figures: { keptTokens: 0, windowTokens: 0 } })).toBe('#1 auto · nothing before it in this file');
  expect(compactionChip({ xray: { index: 2, trigger: 'manual' }, figures: { keptTokens: 250, windowTokens: 1000 } })).toBe('#2 manual · kept 25%');
});

it('one "before" figure, the others explained', () => {
  const b = beforeFigure({ preTokens: 150_000, preTokensMetadata: 149_000 }, 120_000);
  expect(b.tokens).toBe(150_000);
  expect(b.others).toMatch(/149,000.*120,000/);
  expect(beforeFigure({ preTokens: null, preTokensMetadata: null }, 0).tokens).toBeNull();
});

it('marker labels closer than the gap are left out, so none overlap', () => {
  expect(markerLabelsThatFit([10, 20, 90, 95, 200], 60)).toEqual([true, false, true, false, true]);
});
