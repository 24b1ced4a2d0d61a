import { describe, expect, it } from 'vitest';
import { fail, ok, type Result } from '@glassbox/contract';
import { SharedRuns } from './shared-runs';

/** A run that ends when told to, counting how often it was started. */
function gate(): { work: () => Promise<Result<number>>; started: () => number; finish: (r: Result<number>) => void } {
  let count = 0;
  let release: ((r: Result<number>) => void) | null = null;
  return {
    work: () => {
      count++;
      return new Promise((resolve) => (release = resolve));
    },
    started: () => count,
    finish: (r) => release?.(r),
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A run started, then the key's file changed, then another request came: the common start of two tests. */
function changedWhileRunning() {
  const runs = new SharedRuns();
  let generation = 0;
  const g = gate();
  const first = runs.run('a', () => generation, g.work);
  generation = 1;
  const second = runs.run('a', () => generation, g.work);
  return { runs, g, first, second, generation: () => generation };
}

describe('shared runs', () => {
  it('a second request while the first runs shares its run and answer', async () => {
    const runs = new SharedRuns();
    const g = gate();
    const first = runs.run('a', () => 0, g.work);
    const second = runs.run('a', () => 0, g.work);
    await tick();
    expect(g.started()).toBe(1);
    g.finish(ok(7));
    expect(await first).toEqual(ok(7));
    expect(await second).toEqual(ok(7));
    expect(runs.size).toBe(0);
  });

  it('a request that came after a change waits for the older run, then runs again', async () => {
    const { runs, g, first, second, generation } = changedWhileRunning();
    const third = runs.run('a', generation, g.work);
    await tick();
    expect(g.started()).toBe(1);
    g.finish(ok(1));
    expect(await first).toEqual(ok(1));
    await tick();
    // The two newer requests share the one new run.
    expect(g.started()).toBe(2);
    g.finish(ok(2));
    expect(await second).toEqual(ok(2));
    expect(await third).toEqual(ok(2));
  });

  it('a cancelled run cancels every request that shared it, even one that came after a change', async () => {
    const { g, first, second } = changedWhileRunning();
    await tick();
    g.finish(fail('cancelled', 'Cancelled.'));
    expect((await first).ok).toBe(false);
    const r = await second;
    expect(r.ok ? null : r.error.code).toBe('cancelled');
    expect(g.started()).toBe(1);
  });

  it('runs of other keys do not wait for each other, and a failed run is not kept', async () => {
    const runs = new SharedRuns();
    const a = gate();
    const b = gate();
    const ra = runs.run('a', () => 0, a.work);
    const rb = runs.run('b', () => 0, b.work);
    await tick();
    expect(a.started() + b.started()).toBe(2);
    b.finish(fail('unreadable', 'no'));
    expect((await rb).ok).toBe(false);
    const again = runs.run('b', () => 0, b.work);
    await tick();
    expect(b.started()).toBe(2);
    b.finish(ok(3));
    expect(await again).toEqual(ok(3));
    a.finish(ok(4));
    expect(await ra).toEqual(ok(4));
  });
});
