import { CLASS_COLOUR, HATCHED } from './palette';
import type { Tile } from './treemap-layout';

/**
 * Paints the tiles a predicate picks (the small ones) onto a canvas the size of the treemap: fills by
 * class, the hatching of inferred and unattributed classes, merged tiles dimmed. One pass, batched by
 * colour, so tens of thousands of tiles cost a few milliseconds.
 */
export function paintTiles(canvas: HTMLCanvasElement, tiles: readonly Tile[], width: number, height: number, pick: (t: Tile) => boolean): void {
  const ratio = window.devicePixelRatio || 1;
  const w = Math.round(width * ratio);
  const h = Math.round(height * ratio);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const byFill = new Map<string, Tile[]>();
  for (const t of tiles) {
    if (!pick(t)) continue;
    const key = `${t.cls}${t.kind === 'merged' ? ':m' : ''}`;
    let list = byFill.get(key);
    if (!list) byFill.set(key, (list = []));
    list.push(t);
  }
  const hatch = hatchPattern(ctx);
  for (const [key, list] of byFill) {
    const cls = key.replace(/:m$/, '') as Tile['cls'];
    ctx.globalAlpha = key.endsWith(':m') ? 0.8 : 1;
    ctx.fillStyle = CLASS_COLOUR[cls];
    ctx.beginPath();
    for (const t of list) ctx.rect(t.x0, t.y0, t.x1 - t.x0, t.y1 - t.y0);
    ctx.fill();
    if (HATCHED.has(cls) && hatch) {
      ctx.fillStyle = hatch;
      ctx.fill();
    }
  }
  ctx.globalAlpha = 1;
}

function hatchPattern(ctx: CanvasRenderingContext2D): CanvasPattern | null {
  const tile = document.createElement('canvas');
  tile.width = 8;
  tile.height = 8;
  const c = tile.getContext('2d');
  if (!c) return null;
  c.strokeStyle = 'rgba(255, 255, 255, 0.28)';
  c.lineWidth = 3;
  c.beginPath();
  c.moveTo(-2, 10);
  c.lineTo(10, -2);
  c.stroke();
  return ctx.createPattern(tile, 'repeat');
}
