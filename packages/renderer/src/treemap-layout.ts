import type { ClassifiedSnapshot, SegmentClass } from '@glassbox/core';
import { CLASS_LABEL, shownClass } from './palette';
import { squarify } from './squarify';
import { isPathSource } from './labels';

type TileClass = SegmentClass | 'unattributed';

/** One segment (or the unattributed remainder) as the treemap sees it: two grouping keys and a size. */
export interface TreeLeaf {
  id: string;
  tokens: number;
  cls: TileClass;
  g1: string;
  g2: string;
  label: string;
  /** The label is a path (lead with the file name when drawn). */
  pathLike?: boolean;
}

export interface Tile {
  id: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cls: TileClass;
  label: string;
  tokens: number;
  /** What the area is drawn from: the tokens, or the minimum size of a dead segment. */
  area: number;
  /** 'merged' stands for segments too small to draw one by one (drill in to see them). */
  kind: 'segment' | 'merged' | 'unattributed';
  count: number;
  g1: string;
  g2: string;
  pathLike?: boolean;
}

export interface GroupTile {
  key: string;
  depth: 1 | 2;
  /** Drawn with a label strip on top (big enough for one). */
  header: boolean;
  label: string;
  tokens: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface TreemapLayout {
  tiles: Tile[];
  groups: GroupTile[];
  total: number;
}

export const GROUP_HEADER = 18;
/** Groups smaller than this (px²) are drawn without a label strip (hover and the legend name them). */
export const HEADER_MIN_AREA = 6000;
/** A segment smaller than this many square pixels is drawn as part of a "N small segments" tile. */
export const MIN_TILE_AREA = 24;
/** A source group smaller than this is drawn without its outline. */
export const MIN_OUTLINE_AREA = 900;
/** Each dead segment is drawn at least this share of the whole (see layoutTreemap). */
export const DEAD_FLOOR_SHARE = 0.006;

/**
 * The treemap's leaves. `deadOnly`: only the segments a fork could remove, each sized by what removing
 * it frees (its evictable tokens, not its whole size), so the map answers "where is the waste" at a glance.
 */
export function leavesOf(snapshot: ClassifiedSnapshot, groupBy: 'class' | 'source', withUnattributed = true, deadOnly = false): TreeLeaf[] {
  const shown = deadOnly ? snapshot.segments.filter((s) => s.class !== 'live' && s.evictableTokens > 0) : snapshot.segments;
  const out: TreeLeaf[] = shown.map((s) => ({
    id: s.id,
    tokens: Math.max(1, deadOnly ? s.evictableTokens : s.tokens),
    cls: shownClass(s),
    g1: groupBy === 'class' ? shownClass(s) : s.source.type,
    g2: s.source.label || s.source.type,
    label: s.source.label || s.kind,
    pathLike: isPathSource(s.source.type),
  }));
  const rest = snapshot.context.unattributedTokens;
  if (rest > 0 && withUnattributed && !deadOnly) {
    out.push({
      id: 'unattributed',
      tokens: rest,
      cls: 'unattributed',
      g1: groupBy === 'class' ? 'unattributed' : 'system',
      g2: 'not in the transcript',
      label: 'system prompt, tools and memory (not in the transcript)',
    });
  }
  return out;
}

export function groupLabel(key: string, groupBy: 'class' | 'source'): string {
  if (groupBy === 'class') return CLASS_LABEL[key as TileClass] ?? key;
  return key === 'system' ? 'system prompt, tools, memory' : key;
}

interface Node {
  key: string;
  /** Drawn area, in tokens (dead segments floored). */
  value: number;
  tokens: number;
  children?: Node[];
  tile?: Tile;
  /** A source group's merged small segments, one per class. */
  merged?: Map<TileClass, Node>;
}

const byValue = (a: Node, b: Node) => b.value - a.value;

/**
 * The treemap of the current drill-down level: area = tokens. At the top, groups (class or source
 * type) hold sub-groups (source) that hold segments; zooming into a group shows one level less.
 * Segments too small to see are merged per (group, source, class) before anything is laid out, so the
 * cost follows what is drawn, not the number of segments.
 */
export function layoutTreemap(
  leaves: readonly TreeLeaf[],
  options: { width: number; height: number; zoom: readonly string[]; groupBy: 'class' | 'source'; minArea?: number; keep?: ReadonlySet<string> },
): TreemapLayout {
  const { width, height, zoom, groupBy } = options;
  // Segments asked for by id (selected, or shown from elsewhere) keep a tile of their own.
  const keep = options.keep;
  const minArea = options.minArea ?? MIN_TILE_AREA;
  const z0 = zoom[0];
  const z1 = zoom[1];
  let total = 0;
  let deadCount = 0;
  const visible: TreeLeaf[] = [];
  for (const l of leaves) {
    if ((z0 !== undefined && l.g1 !== z0) || (z1 !== undefined && l.g2 !== z1)) continue;
    visible.push(l);
    total += l.tokens;
    if (l.cls !== 'live' && l.cls !== 'unattributed') deadCount++;
  }
  if (total === 0 || width < 4 || height < 4) return { tiles: [], groups: [], total };
  // Dead segments are what the user came to see: each is drawn at least this big (in tokens of area),
  // while all such floors together add at most a tenth to the whole. Tooltips give the true size.
  const floor = deadCount ? Math.min(total * DEAD_FLOOR_SHARE, (total * 0.1) / deadCount) : 0;
  const areaOf = (l: TreeLeaf) => (l.cls !== 'live' && l.cls !== 'unattributed' && l.tokens < floor ? floor : l.tokens);
  let areaTotal = 0;
  for (const l of visible) areaTotal += areaOf(l);
  const minTokens = minArea / ((width * height) / areaTotal);

  // g1 → g2 → tiles, merging segments too small to see into one tile per (g1, g2, class).
  const g1Map = new Map<string, Map<string, Node>>();
  for (const l of visible) {
    let g2Map = g1Map.get(l.g1);
    if (!g2Map) g1Map.set(l.g1, (g2Map = new Map()));
    let g2 = g2Map.get(l.g2);
    if (!g2) g2Map.set(l.g2, (g2 = { key: l.g2, value: 0, tokens: 0, children: [] }));
    const a = areaOf(l);
    g2.value += a;
    g2.tokens += l.tokens;
    const kids = g2.children as Node[];
    if (a < minTokens && l.cls !== 'unattributed' && !keep?.has(l.id)) {
      const mergedOf = (g2.merged ??= new Map());
      let m = mergedOf.get(l.cls);
      if (!m) {
        const id = `merged:${l.g1}\u0000${l.g2}\u0000${l.cls}`;
        const tile: Tile = { id, x0: 0, y0: 0, x1: 0, y1: 0, cls: l.cls, label: '', tokens: 0, area: 0, kind: 'merged', count: 0, g1: l.g1, g2: l.g2 };
        kids.push((m = { key: id, value: 0, tokens: 0, tile }));
        mergedOf.set(l.cls, m);
      }
      const t = m.tile as Tile;
      m.value += a;
      t.tokens += l.tokens;
      t.area += a;
      t.count++;
      continue;
    }
    const tile: Tile = { id: l.id, x0: 0, y0: 0, x1: 0, y1: 0, cls: l.cls, label: l.label, tokens: l.tokens, area: a, kind: l.cls === 'unattributed' ? 'unattributed' : 'segment', count: 1, g1: l.g1, g2: l.g2, pathLike: l.pathLike ?? false };
    kids.push({ key: l.id, value: a, tokens: l.tokens, tile });
  }

  for (const g2Map of g1Map.values()) for (const g2 of g2Map.values()) for (const m of g2.merged?.values() ?? []) if (m.tile) m.tile.label = `${m.tile.count} small segments`;
  const sumUp = (key: string, children: Node[]): Node => {
    let value = 0;
    let tokens = 0;
    for (const c of children) {
      value += c.value;
      tokens += c.tokens;
    }
    return { key, value, tokens, children };
  };
  let top: Node[];
  if (z0 === undefined) top = [...g1Map].map(([key, g2Map]) => sumUp(key, [...g2Map.values()]));
  else if (z1 === undefined) top = [...(g1Map.get(z0)?.values() ?? [])];
  else top = [...(g1Map.get(z0)?.get(z1)?.children ?? [])];

  // A group gets a label strip only when it is big enough to keep room for its tiles under it.
  const scale = (width * height) / areaTotal;
  const hasHeader = (value: number) => value * scale >= HEADER_MIN_AREA;
  const tiles: Tile[] = [];
  const groups: GroupTile[] = [];
  const topDepth: 1 | 2 = z0 === undefined ? 1 : 2;

  const layNode = (node: Node, depth: 1 | 2, x0: number, y0: number, x1: number, y1: number): void => {
    if (node.tile) {
      const t = node.tile;
      t.x0 = Math.round(x0);
      t.y0 = Math.round(y0);
      t.x1 = Math.round(x1);
      t.y1 = Math.round(y1);
      if (t.x1 - t.x0 >= 1 && t.y1 - t.y0 >= 1) tiles.push(t);
      return;
    }
    const header = depth === 1 && z0 === undefined && hasHeader(node.value);
    // Source outlines too small to see are not drawn (thousands of them at 50k segments).
    if (depth === 1 || (x1 - x0) * (y1 - y0) >= MIN_OUTLINE_AREA) {
      groups.push({
        key: node.key,
        depth,
        header,
        label: depth === 1 ? groupLabel(node.key, groupBy) : node.key,
        tokens: node.tokens,
        x0: Math.round(x0),
        y0: Math.round(y0),
        x1: Math.round(x1),
        y1: Math.round(y1),
      });
    }
    layRow(node.children ?? [], 2, x0 + 1, y0 + (header ? GROUP_HEADER : 1), x1 - 1, y1 - 1);
  };
  const layRow = (nodes: Node[], depth: 1 | 2, x0: number, y0: number, x1: number, y1: number): void => {
    if (x1 - x0 < 1 || y1 - y0 < 1 || nodes.length === 0) return;
    nodes.sort(byValue);
    const values = nodes.map((n) => n.value);
    // Siblings are 2 px apart: each keeps 1 px of its rectangle on every side.
    squarify(values, x0, y0, x1, y1, (i, a, b, c, d) => layNode(nodes[i] as Node, depth, a + 1, b + 1, c - 1, d - 1));
  };
  layRow(top, topDepth, -1, -1, width + 1, height + 1);
  return { tiles, groups, total };
}

/** The tile under a point, or null (a linear scan over what is drawn: a few thousand tiles at most). */
export function tileAt(tiles: readonly Tile[], x: number, y: number): Tile | null {
  for (let i = tiles.length - 1; i >= 0; i--) {
    const t = tiles[i] as Tile;
    if (x >= t.x0 && x < t.x1 && y >= t.y0 && y < t.y1) return t;
  }
  return null;
}

/** The tile next to `from` in a direction: nearest centre in that half-plane, favouring straight lines. */
export function neighbour(tiles: readonly Tile[], from: Tile, dir: 'left' | 'right' | 'up' | 'down'): Tile | null {
  const cx = (from.x0 + from.x1) / 2;
  const cy = (from.y0 + from.y1) / 2;
  let best: Tile | null = null;
  let bestScore = Infinity;
  for (const t of tiles) {
    if (t === from) continue;
    const tx = (t.x0 + t.x1) / 2;
    const ty = (t.y0 + t.y1) / 2;
    const dx = tx - cx;
    const dy = ty - cy;
    const along = dir === 'left' ? -dx : dir === 'right' ? dx : dir === 'up' ? -dy : dy;
    const across = dir === 'left' || dir === 'right' ? Math.abs(dy) : Math.abs(dx);
    if (along <= 0) continue;
    const score = along + across * 2;
    if (score < bestScore) {
      bestScore = score;
      best = t;
    }
  }
  return best;
}
