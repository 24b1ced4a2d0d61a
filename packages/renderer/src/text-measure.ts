/**
 * Measures label text the way the treemap draws it (11 px, the page's font), so a name that fits is
 * never cut for want of a good guess. Where there is no canvas (a test outside a browser), labels
 * fall back to a per-character estimate.
 */
import { charMeasure, type Measure } from './labels';

const cache = new Map<string, Measure>();

/** A measure for text in `weight` at 11 px in the document's body font. */
export function labelMeasure(weight: 400 | 600): Measure {
  const key = String(weight);
  const known = cache.get(key);
  if (known) return known;
  const made = makeMeasure(weight);
  cache.set(key, made);
  return made;
}

function makeMeasure(weight: number): Measure {
  if (typeof document === 'undefined') return charMeasure;
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return charMeasure;
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  ctx.font = `${weight} 11px ${family}`;
  const widths = new Map<string, number>();
  return (text) => {
    let w = widths.get(text);
    if (w === undefined) {
      w = ctx.measureText(text).width;
      // Bounded: labels are many but short-lived; a long session would otherwise grow this forever.
      if (widths.size > 20_000) widths.clear();
      widths.set(text, w);
    }
    return w;
  };
}
