import type { ClassifiedSnapshot, SegmentClass, SourceType } from '@glassbox/core';

export interface SourceTotal {
  type: SourceType;
  label: string;
  tokens: number;
  segments: number;
  byClass: Partial<Record<SegmentClass, number>>;
}

/** Segments grouped by source, largest first. */
export function sourceTotals(snap: ClassifiedSnapshot): SourceTotal[] {
  const map = new Map<string, SourceTotal>();
  for (const s of snap.segments) {
    const key = `${s.source.type}\u0000${s.source.label}`;
    let t = map.get(key);
    if (!t) {
      t = { type: s.source.type, label: s.source.label, tokens: 0, segments: 0, byClass: {} };
      map.set(key, t);
    }
    t.tokens += s.tokens;
    t.segments++;
    t.byClass[s.class] = (t.byClass[s.class] ?? 0) + s.tokens;
  }
  return [...map.values()].sort((a, b) => b.tokens - a.tokens);
}

