import { CLASS_COLOUR, CLASS_LABEL, CLASS_REGISTRY, type Segment, type SegmentClass } from '@glassbox/core';

/** The shared palette and labels, from the core class registry, so the CLI paints the same classes alike. */
export { CLASS_COLOUR, CLASS_LABEL };

/**
 * The class a segment is drawn as: a fork's elision is a tombstone to the analysis (never planned
 * again), but it still holds the result's own ends, so it wears the elided class's colour and label.
 */
export function shownClass(s: Pick<Segment, 'class' | 'proof'>): SegmentClass {
  return s.class === 'tombstone' && s.proof?.class === 'tombstone' && s.proof.elided ? 'elided' : s.class;
}

/** Hatched fills say "inferred" or "not in the transcript". */
export const HATCHED: ReadonlySet<string> = new Set([...Object.values(CLASS_REGISTRY).filter((c) => c.hatched).map((c) => c.id), 'unattributed']);

/** Text colour with the better WCAG contrast on a fill (both choices meet AA on this palette). */
export function textOn(fill: string): string {
  const l = luminance(fill);
  const onWhite = (1.05) / (l + 0.05);
  const onBlack = (l + 0.05) / 0.05;
  return onBlack >= onWhite ? '#111111' : '#ffffff';
}

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (ch[0] ?? 0) + 0.7152 * (ch[1] ?? 0) + 0.0722 * (ch[2] ?? 0);
}
