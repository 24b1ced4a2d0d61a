import { describe, expect, it } from 'vitest';
import { syntheticRows } from '../bench/list-bench-rows';
import { nextRows } from './list-rows';

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
