import { expect, it } from 'vitest';
import { findHits, hitsLabel } from './conversation-find';

it('counts every occurrence, not the items that hold one', () => {
  const items = [
    { text: 'foo bar FOO', label: 'a' },
    { text: 'nothing', label: 'the foo file' },
    { text: 'foofoo', label: 'b' },
  ];
  expect(findHits(items, 'foo')).toEqual([0, 0, 1, 2, 2]);
  expect(hitsLabel(findHits(items, 'foo'), 2)).toBe('3 of 5 hits in 3 items');
  expect(findHits(items, '  ')).toEqual([]);
  expect(hitsLabel([], 0)).toBe('no match');
});
