import { describe, expect, it } from 'vitest';
import type { ClassifiedSnapshot } from '@glassbox/core';
import gone from '../../../fixtures/snapshots/02-gone-drift-errors.json';
import large from '../../../fixtures/snapshots/03-large-outputs.json';
import { MIN_TILE_AREA, layoutTreemap, leavesOf, neighbour } from './treemap-layout';

// Snapshots the engine made of real sessions, recorded by `npm run snapshots:record` (a host test keeps
// them current), so the renderer is tested without starting the engine.
const SNAPSHOTS: Record<string, ClassifiedSnapshot> = {
  '02-gone-drift-errors': gone as unknown as ClassifiedSnapshot,
  '03-large-outputs': large as unknown as ClassifiedSnapshot,
};

async function snapshotOf(name: string): Promise<ClassifiedSnapshot> {
  const snap = SNAPSHOTS[name];
  if (!snap) throw new Error(`no recorded snapshot ${name}`);
  return structuredClone(snap);
}

const area = (t: { x0: number; x1: number; y0: number; y1: number }) => (t.x1 - t.x0) * (t.y1 - t.y0);

describe('treemap layout on real snapshots', () => {
  it('draws every class present, dead ones at a visible size, and the unattributed remainder', async () => {
    const snap = await snapshotOf('02-gone-drift-errors');
    const layout = layoutTreemap(leavesOf(snap, 'class'), { width: 800, height: 500, zoom: [], groupBy: 'class' });
    const drawn = new Set(layout.tiles.map((t) => t.cls));
    for (const s of snap.segments) expect(drawn.has(s.class)).toBe(true);
    expect(drawn.has('unattributed')).toBe(snap.context.unattributedTokens > 0);
    for (const t of layout.tiles.filter((x) => x.cls !== 'live' && x.cls !== 'unattributed')) expect(area(t)).toBeGreaterThanOrEqual(200);
    // Tiles never overlap and stay inside the box.
    for (const t of layout.tiles) {
      expect(t.x0).toBeGreaterThanOrEqual(0);
      expect(t.y1).toBeLessThanOrEqual(500);
    }
  });

  it('keeps area proportional to tokens for live segments, and merges what is too small to draw', async () => {
    const snap = await snapshotOf('03-large-outputs');
    const leaves = leavesOf(snap, 'source');
    const layout = layoutTreemap(leaves, { width: 900, height: 600, zoom: [], groupBy: 'source' });
    const segs = layout.tiles.filter((t) => t.kind === 'segment' && t.cls === 'live').sort((a, b) => b.tokens - a.tokens);
    const [big, next] = segs;
    expect(big && next).toBeTruthy();
    if (big && next) {
      const ratio = area(big) / area(next) / (big.tokens / next.tokens);
      expect(ratio).toBeGreaterThan(0.7);
      expect(ratio).toBeLessThan(1.4);
    }
    const tiny = layoutTreemap(leaves, { width: 900, height: 600, zoom: [], groupBy: 'source', minArea: 5000 });
    const merged = tiny.tiles.filter((t) => t.kind === 'merged');
    expect(merged.length).toBeGreaterThan(0);
    // Nearly every token stays on screen (a few slivers round to nothing inside padded groups).
    const countedTokens = tiny.tiles.reduce((n, t) => n + t.tokens, 0);
    expect(countedTokens / leaves.reduce((n, l) => n + l.tokens, 0)).toBeGreaterThan(0.99);
    expect(MIN_TILE_AREA).toBeLessThan(5000);
  });

  it('drills down: a class, then a source, and arrows move between neighbours', async () => {
    const snap = await snapshotOf('02-gone-drift-errors');
    const leaves = leavesOf(snap, 'class');
    const live = layoutTreemap(leaves, { width: 800, height: 500, zoom: ['live'], groupBy: 'class' });
    expect(new Set(live.tiles.map((t) => t.cls))).toEqual(new Set(['live']));
    const source = live.tiles[0]?.g2 as string;
    const one = layoutTreemap(leaves, { width: 800, height: 500, zoom: ['live', source], groupBy: 'class' });
    expect(one.tiles.every((t) => t.g2 === source)).toBe(true);
    const from = live.tiles[0];
    if (from) {
      const right = neighbour(live.tiles, from, 'right');
      if (right) expect(right.x0 + right.x1).toBeGreaterThan(from.x0 + from.x1);
      const down = neighbour(live.tiles, from, 'down');
      if (down) expect(down.y0 + down.y1).toBeGreaterThan(from.y0 + from.y1);
    }
  });
});
