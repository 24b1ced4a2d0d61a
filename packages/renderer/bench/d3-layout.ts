// The treemap layout as it was before the flat squarify (d3-hierarchy over every segment), kept as the
// benchmark's same-process baseline: its time against the current layout's is a ratio the machine's
// load does not change much.
import { hierarchy, treemap, treemapSquarify, type HierarchyRectangularNode } from 'd3-hierarchy';
import { DEAD_FLOOR_SHARE, GROUP_HEADER, HEADER_MIN_AREA, MIN_OUTLINE_AREA, MIN_TILE_AREA, groupLabel, type GroupTile, type Tile, type TreeLeaf, type TreemapLayout } from '../src/treemap-layout';

interface Node {
  key: string;
  leaf?: Tile;
  children?: Node[];
  value?: number;
}

/**
 * The treemap of the current drill-down level: area = tokens. At the top, groups (class or source
 * type) hold sub-groups (source) that hold segments; zooming into a group shows one level less.
 */
export function d3LayoutTreemap(
  leaves: readonly TreeLeaf[],
  options: { width: number; height: number; zoom: readonly string[]; groupBy: 'class' | 'source'; minArea?: number },
): TreemapLayout {
  const { width, height, zoom, groupBy } = options;
  const minArea = options.minArea ?? MIN_TILE_AREA;
  const visible = leaves.filter((l) => (zoom[0] === undefined || l.g1 === zoom[0]) && (zoom[1] === undefined || l.g2 === zoom[1]));
  const total = visible.reduce((n, l) => n + l.tokens, 0);
  if (total === 0 || width < 4 || height < 4) return { tiles: [], groups: [], total };
  // Dead segments are what the user came to see: each is drawn at least this big (in tokens of area),
  // while all such floors together add at most a tenth to the whole. Tooltips give the true size.
  const deadCount = visible.filter((l) => l.cls !== 'live' && l.cls !== 'unattributed').length;
  const floor = deadCount ? Math.min(total * DEAD_FLOOR_SHARE, (total * 0.1) / deadCount) : 0;
  const areaOf = (l: TreeLeaf) => (l.cls !== 'live' && l.cls !== 'unattributed' ? Math.max(l.tokens, floor) : l.tokens);
  const pxPerToken = (width * height) / visible.reduce((n, l) => n + areaOf(l), 0);

  // Group, merging segments too small to see into one tile per (group, class).
  const g1Map = new Map<string, Map<string, Node[]>>();
  const merged = new Map<string, Tile>();
  for (const l of visible) {
    let g2Map = g1Map.get(l.g1);
    if (!g2Map) g1Map.set(l.g1, (g2Map = new Map()));
    let list = g2Map.get(l.g2);
    if (!list) g2Map.set(l.g2, (list = []));
    if (areaOf(l) * pxPerToken < minArea && l.cls !== 'unattributed') {
      const key = `${l.g1}\u0000${l.g2}\u0000${l.cls}`;
      let m = merged.get(key);
      if (!m) {
        m = { id: `merged:${key}`, x0: 0, y0: 0, x1: 0, y1: 0, cls: l.cls, label: '', tokens: 0, area: 0, kind: 'merged', count: 0, g1: l.g1, g2: l.g2 };
        merged.set(key, m);
        list.push({ key: m.id, leaf: m });
      }
      m.tokens += l.tokens;
      m.area += areaOf(l);
      m.count++;
      m.label = `${m.count} small segments`;
      continue;
    }
    const tile: Tile = { id: l.id, x0: 0, y0: 0, x1: 0, y1: 0, cls: l.cls, label: l.label, tokens: l.tokens, area: areaOf(l), kind: l.cls === 'unattributed' ? 'unattributed' : 'segment', count: 1, g1: l.g1, g2: l.g2 };
    list.push({ key: l.id, leaf: tile });
  }

  const g2Nodes = (g2Map: Map<string, Node[]>): Node[] => [...g2Map].map(([key, children]) => ({ key, children }));
  let rootChildren: Node[];
  let topDepth: 1 | 2;
  if (zoom.length === 0) {
    rootChildren = [...g1Map].map(([key, g2Map]) => ({ key, children: g2Nodes(g2Map) }));
    topDepth = 1;
  } else if (zoom.length === 1) {
    rootChildren = g2Nodes(g1Map.get(zoom[0] as string) ?? new Map());
    topDepth = 2;
  } else {
    rootChildren = [...(g1Map.get(zoom[0] as string)?.get(zoom[1] as string) ?? [])];
    topDepth = 2;
  }

  // A group gets a label strip only when it is big enough to keep room for its tiles under it.
  const areaTotal = visible.reduce((n, l) => n + areaOf(l), 0);
  const hasHeader = (value: number) => (value / areaTotal) * width * height >= HEADER_MIN_AREA;
  const root = hierarchy<Node>({ key: 'root', children: rootChildren }, (d) => d.children)
    .sum((d) => d.leaf?.area ?? 0)
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  const laid = treemap<Node>()
    .tile(treemapSquarify)
    .size([width, height])
    .round(true)
    .paddingInner(2)
    .paddingTop((n) => (n.depth === 1 && zoom.length === 0 && n.children && hasHeader(n.value ?? 0) ? GROUP_HEADER : n.depth >= 1 && n.children ? 1 : 0))
    .paddingLeft((n) => (n.depth >= 1 && n.children ? 1 : 0))
    .paddingRight((n) => (n.depth >= 1 && n.children ? 1 : 0))
    .paddingBottom((n) => (n.depth >= 1 && n.children ? 1 : 0))(root);

  const tiles: Tile[] = [];
  const groups: GroupTile[] = [];
  laid.each((n: HierarchyRectangularNode<Node>) => {
    if (n.depth === 0) return;
    if (n.data.leaf) {
      const t = n.data.leaf;
      t.x0 = n.x0;
      t.y0 = n.y0;
      t.x1 = n.x1;
      t.y1 = n.y1;
      if (t.x1 - t.x0 >= 1 && t.y1 - t.y0 >= 1) tiles.push(t);
      return;
    }
    const depth: 1 | 2 = zoom.length === 0 ? (n.depth === 1 ? 1 : 2) : topDepth;
    // Source outlines too small to see are not drawn (thousands of them at 50k segments).
    if (depth === 2 && (n.x1 - n.x0) * (n.y1 - n.y0) < MIN_OUTLINE_AREA) return;
    groups.push({
      key: n.data.key,
      depth,
      header: depth === 1 && zoom.length === 0 && hasHeader(n.value ?? 0),
      label: depth === 1 ? groupLabel(n.data.key, groupBy) : n.data.key,
      tokens: n.leaves().reduce((sum, leaf) => sum + (leaf.data.leaf?.tokens ?? 0), 0),
      x0: n.x0,
      y0: n.y0,
      x1: n.x1,
      y1: n.y1,
    });
  });
  return { tiles, groups, total };
}

