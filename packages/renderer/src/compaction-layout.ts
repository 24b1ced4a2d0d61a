/** A rectangle of the before/after treemaps of a compaction x-ray. */
export interface Cell<T> {
  item: T;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Squarified treemap (Bruls, Huizing and van Wijk): items, largest first, laid in rows along the
 * shorter side so that cells stay close to square. Areas are proportional to weight; items of no
 * weight get no cell.
 */
export function squarify<T>(items: readonly T[], weightOf: (item: T) => number, width: number, height: number): Cell<T>[] {
  const sorted = items.filter((i) => weightOf(i) > 0).sort((a, b) => weightOf(b) - weightOf(a));
  const total = sorted.reduce((n, i) => n + weightOf(i), 0);
  if (total <= 0 || width <= 0 || height <= 0) return [];
  const scale = (width * height) / total;
  const out: Cell<T>[] = [];
  let x = 0;
  let y = 0;
  let w = width;
  let h = height;
  let row: T[] = [];
  const area = (i: T): number => weightOf(i) * scale;
  const worst = (r: T[], side: number): number => {
    const s = r.reduce((n, i) => n + area(i), 0);
    let max = 0;
    for (const i of r) {
      const a = area(i);
      max = Math.max(max, (side * side * a) / (s * s), (s * s) / (side * side * a));
    }
    return max;
  };
  const place = (r: T[]): void => {
    const s = r.reduce((n, i) => n + area(i), 0);
    if (w >= h) {
      // A column on the left, as wide as the row's area needs.
      const cw = s / h;
      let cy = y;
      for (const i of r) {
        const ch = area(i) / cw;
        out.push({ item: i, x, y: cy, w: cw, h: ch });
        cy += ch;
      }
      x += cw;
      w -= cw;
    } else {
      const rh = s / w;
      let cx = x;
      for (const i of r) {
        const cw = area(i) / rh;
        out.push({ item: i, x: cx, y, w: cw, h: rh });
        cx += cw;
      }
      y += rh;
      h -= rh;
    }
  };
  for (const item of sorted) {
    const side = Math.min(w, h);
    if (row.length === 0 || worst([...row, item], side) <= worst(row, side)) {
      row.push(item);
      continue;
    }
    place(row);
    row = [item];
  }
  if (row.length > 0) place(row);
  return out;
}
