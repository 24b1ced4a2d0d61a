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
type Tile = ReturnType<typeof layoutTreemap>['tiles'][number];

/** Every tile inside the box on all four edges, none overlapping another (shared edges allowed). */
function expectInsideAndApart(tiles: readonly Tile[], width: number, height: number): void {
  const eps = 1e-6;
  expect(tiles.length).toBeGreaterThan(0);
  for (const t of tiles) {
    expect(t.x0).toBeGreaterThanOrEqual(-eps);
    expect(t.y0).toBeGreaterThanOrEqual(-eps);
    expect(t.x1).toBeLessThanOrEqual(width + eps);
    expect(t.y1).toBeLessThanOrEqual(height + eps);
    expect(t.x1).toBeGreaterThanOrEqual(t.x0);
    expect(t.y1).toBeGreaterThanOrEqual(t.y0);
  }
  for (let i = 0; i < tiles.length; i++) {
    for (let j = i + 1; j < tiles.length; j++) {
      const a = tiles[i] as Tile;
      const b = tiles[j] as Tile;
      const overlapX = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const overlapY = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      expect(overlapX > eps && overlapY > eps, `tiles ${i} and ${j} overlap`).toBe(false);
    }
  }
}

describe('the overlap check itself', () => {
  // A tile of a real layout, and a copy of it moved next to it on each side.
  const tile = layoutTreemap(leavesOf(gone as unknown as ClassifiedSnapshot, 'class'), { width: 800, height: 500, zoom: [], groupBy: 'class' }).tiles[0] as Tile;
  const w = tile.x1 - tile.x0;
  const h = tile.y1 - tile.y0;
  const moved = (dx: number, dy: number): Tile => ({ ...tile, x0: tile.x0 + dx, x1: tile.x1 + dx, y0: tile.y0 + dy, y1: tile.y1 + dy });
  const sides = { left: [-w, 0], right: [w, 0], top: [0, -h], bottom: [0, h] } as const;

  it.each(Object.entries(sides))('catches a tile reaching 1 px over the %s edge, and lets one touch it', (_side, [dx, dy]) => {
    const box = [10_000, 10_000] as const;
    const shift = (n: number) => (n === 0 ? 0 : n - Math.sign(n));
    const at = (t: Tile) => ({ ...t, x0: t.x0 + w, x1: t.x1 + w, y0: t.y0 + h, y1: t.y1 + h });
    expect(() => expectInsideAndApart([at(tile), at(moved(shift(dx), shift(dy)))], ...box)).toThrow(/overlap/);
    expect(() => expectInsideAndApart([at(tile), at(moved(dx, dy))], ...box)).not.toThrow();
  });

  it('catches a tile inside another, and one past the box', () => {
    expect(() => expectInsideAndApart([tile, { ...tile, x0: tile.x0 + 1, x1: tile.x1 - 1, y0: tile.y0 + 1, y1: tile.y1 - 1 }], 800, 500)).toThrow(/overlap/);
    expect(() => expectInsideAndApart([moved(0, 0)], tile.x1 - 1, 500)).toThrow();
  });
});

describe('treemap layout on real snapshots', () => {
  it('draws every class present, dead ones at a visible size, and the unattributed remainder', async () => {
    const snap = await snapshotOf('02-gone-drift-errors');
    const layout = layoutTreemap(leavesOf(snap, 'class'), { width: 800, height: 500, zoom: [], groupBy: 'class' });
    const drawn = new Set(layout.tiles.map((t) => t.cls));
    for (const s of snap.segments) expect(drawn.has(s.class)).toBe(true);
    expect(drawn.has('unattributed')).toBe(snap.context.unattributedTokens > 0);
    for (const t of layout.tiles.filter((x) => x.cls !== 'live' && x.cls !== 'unattributed')) expect(area(t)).toBeGreaterThanOrEqual(200);
    expectInsideAndApart(layout.tiles, 800, 500);
  });

  it('dead only: just the segments a fork could remove, each sized by what removing it frees', async () => {
    const snap = await snapshotOf('02-gone-drift-errors');
    const leaves = leavesOf(snap, 'class', true, true);
    const dead = snap.segments.filter((s) => s.class !== 'live' && s.evictableTokens > 0);
    expect(dead.length).toBeGreaterThan(0);
    expect(leaves.map((l) => l.id).sort()).toEqual(dead.map((s) => s.id).sort());
    for (const l of leaves) expect(l.tokens).toBe(Math.max(1, dead.find((s) => s.id === l.id)?.evictableTokens ?? 0));
    // The map is laid out again over them alone: they fill the box, and none is live or the remainder.
    const layout = layoutTreemap(leaves, { width: 800, height: 500, zoom: [], groupBy: 'class' });
    expect(layout.tiles.every((t) => t.cls !== 'live' && t.cls !== 'unattributed')).toBe(true);
    expect(layout.tiles.reduce((a, t) => a + area(t), 0)).toBeGreaterThan(800 * 500 * 0.8);
    expectInsideAndApart(layout.tiles, 800, 500);
  });

  it('never overlaps tiles and keeps every edge inside the box, at several sizes and groupings', async () => {
    for (const name of ['02-gone-drift-errors', '03-large-outputs']) {
      const snap = await snapshotOf(name);
      for (const groupBy of ['class', 'source'] as const) {
        for (const [w, h] of [[800, 500], [316, 420], [1600, 900]] as const) {
          expectInsideAndApart(layoutTreemap(leavesOf(snap, groupBy), { width: w, height: h, zoom: [], groupBy }).tiles, w, h);
        }
      }
    }
  });

  it('keeps area proportional to tokens for live segments, and merges what is too small to draw', async () => {
    const snap = await snapshotOf('03-large-outputs');
    const leaves = leavesOf(snap, 'source');
    const layout = layoutTreemap(leaves, { width: 900, height: 600, zoom: [], groupBy: 'source' });
    const segs = layout.tiles.filter((t) => t.kind === 'segment' && t.cls === 'live').sort((a, b) => b.tokens - a.tokens);
    expect(segs.length).toBeGreaterThanOrEqual(2);
    const [big, next] = segs as [Tile, Tile];
    const ratio = area(big) / area(next) / (big.tokens / next.tokens);
    expect(ratio).toBeGreaterThan(0.7);
    expect(ratio).toBeLessThan(1.4);
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
    // Every arrow from every tile lands on a tile whose centre lies that way, and none leads off the map.
    const centre = (t: Tile) => ({ x: (t.x0 + t.x1) / 2, y: (t.y0 + t.y1) / 2 });
    let moves = 0;
    for (const from of live.tiles) {
      const c = centre(from);
      for (const dir of ['left', 'right', 'up', 'down'] as const) {
        const to = neighbour(live.tiles, from, dir);
        if (to === null) continue;
        moves++;
        const d = centre(to);
        const along = dir === 'left' ? c.x - d.x : dir === 'right' ? d.x - c.x : dir === 'up' ? c.y - d.y : d.y - c.y;
        expect(along, `${dir} from tile at ${c.x},${c.y}`).toBeGreaterThan(0);
      }
    }
    expect(moves).toBeGreaterThan(0);
    const leftmost = [...live.tiles].sort((p, q) => centre(p).x - centre(q).x)[0] as Tile;
    expect(neighbour(live.tiles, leftmost, 'left')).toBeNull();
  });
});
