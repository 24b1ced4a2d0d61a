import { describe, expect, it } from 'vitest';
import { syntheticRows } from '../bench/list-bench-rows';
import { grewInView, grownPaths, nextRows } from './list-rows';

describe('nextRows (a change before the host re-sorts)', () => {
  const rows = syntheticRows(5);
  const paths = rows.map((r) => r.path);
  it('keeps a changed row where it is, so nothing moves under the pointer or the cursor', () => {
    const changed = { ...rows[1]!, title: 'refined' };
    const next = nextRows(rows, { path: changed.path, row: changed });
    expect(next.map((r) => r.path)).toEqual(paths);
    expect(next[1]?.title).toBe('refined');
  });
  it('adds a new row last and drops a removed one', () => {
    const added = { ...rows[0]!, path: '/new.jsonl' };
    expect(nextRows(rows, { path: added.path, row: added }).map((r) => r.path)).toEqual([...paths, '/new.jsonl']);
    expect(nextRows(rows, { path: paths[2]!, row: null }).map((r) => r.path)).toEqual(paths.filter((_, i) => i !== 2));
  });
});

describe('which rows flash (the session grew)', () => {
  const rows = syntheticRows(3);
  const first = rows[0]!;
  it('an append flashes, and so does a bigger row reported as refined (it grew before its first summary)', () => {
    expect(grewInView(first, { reason: 'appended', row: first })).toBe(true);
    expect(grewInView(first, { reason: 'changed', row: { ...first, bytes: first.bytes + 10 } })).toBe(true);
  });
  it('a row refined at the size it was listed with does not, nor a new or a removed one', () => {
    expect(grewInView(first, { reason: 'changed', row: { ...first, title: 'refined' } })).toBe(false);
    expect(grewInView(undefined, { reason: 'added', row: first })).toBe(false);
    expect(grewInView(first, { reason: 'removed', row: null })).toBe(false);
  });
  it('between two lists: only the rows that got bigger, not new or smaller ones', () => {
    const after = [{ ...first, bytes: first.bytes + 1 }, { ...rows[1]!, bytes: rows[1]!.bytes - 1 }, rows[2]!, { ...first, path: '/new.jsonl' }];
    expect(grownPaths(rows, after)).toEqual([first.path]);
  });
});
