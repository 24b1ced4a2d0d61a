/**
 * Squarified treemap rows (Bruls, Huizing, van Wijk), the algorithm d3-hierarchy's `treemapSquarify`
 * uses, on a flat array: no hierarchy objects, so tens of thousands of segments lay out in a few ms.
 * `values` must be sorted largest first; `place` receives each item's rectangle (unrounded).
 */
const PHI = (1 + Math.sqrt(5)) / 2;

export function squarify(
  values: ArrayLike<number>,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  place: (index: number, x0: number, y0: number, x1: number, y1: number) => void,
): void {
  const n = values.length;
  let value = 0;
  for (let i = 0; i < n; i++) value += values[i] as number;
  let i0 = 0;
  let i1 = 0;
  while (i0 < n) {
    const dx = x1 - x0;
    const dy = y1 - y0;
    // The next non-empty item starts the row.
    let sum = values[i1++] as number;
    while (!sum && i1 < n) sum = values[i1++] as number;
    let min = sum;
    let max = sum;
    const alpha = Math.max(dy / dx, dx / dy) / (value * PHI);
    let beta = sum * sum * alpha;
    let best = Math.max(max / beta, beta / min);
    // Add items to the row while its worst aspect ratio does not get worse.
    for (; i1 < n; ++i1) {
      const v = values[i1] as number;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
      beta = sum * sum * alpha;
      const ratio = Math.max(max / beta, beta / min);
      if (ratio > best) {
        sum -= v;
        break;
      }
      best = ratio;
    }
    if (dx < dy) {
      // A row across the top: items side by side, the row's height its share of the rest.
      const ry1 = value ? y0 + (dy * sum) / value : y1;
      let x = x0;
      const k = sum ? dx / sum : 0;
      for (let i = i0; i < i1; i++) {
        const nx = i === i1 - 1 ? x1 : x + (values[i] as number) * k;
        place(i, x, y0, nx, ry1);
        x = nx;
      }
      y0 = ry1;
    } else {
      // A column down the left side.
      const rx1 = value ? x0 + (dx * sum) / value : x1;
      let y = y0;
      const k = sum ? dy / sum : 0;
      for (let i = i0; i < i1; i++) {
        const ny = i === i1 - 1 ? y1 : y + (values[i] as number) * k;
        place(i, x0, y, rx1, ny);
        y = ny;
      }
      x0 = rx1;
    }
    value -= sum;
    i0 = i1;
  }
}
