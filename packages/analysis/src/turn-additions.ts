import type { ClassifiedSnapshot, SegmentClass } from '@glassbox/core';

/** One segment a request added to the window. */
export interface Addition {
  segmentId: string;
  /** "Read src/ledger.ts", "Bash npm test", "prompt". */
  label: string;
  tokens: number;
  class: SegmentClass;
}

/** What the window gained between one response and the next: the request that response answered. */
export interface TurnAddition {
  /** Index into `snapshot.turns`. */
  turn: number;
  /** Estimated tokens of every resident segment added before this response (and after the one before). */
  tokens: number;
  segments: number;
  /** The largest additions, largest first. */
  largest: Addition[];
}

/**
 * For each response on the context chart, the resident segments that entered the window since the
 * previous response (by their line in the transcript), largest first. Segments a compaction dropped
 * are not resident and so not counted; a response's own reply counts towards the next request.
 */
export function turnAdditions(snapshot: ClassifiedSnapshot, top = 5): TurnAddition[] {
  const turns = snapshot.turns;
  const segs = [...snapshot.segments].sort((a, b) => a.line - b.line);
  const out: TurnAddition[] = [];
  let k = 0;
  for (let i = 0; i < turns.length; i++) {
    const upTo = turns[i]?.line ?? Infinity;
    const added: Addition[] = [];
    let tokens = 0;
    while (k < segs.length && (segs[k]?.line ?? Infinity) < upTo) {
      const s = segs[k++];
      if (!s) continue;
      tokens += s.tokens;
      added.push({ segmentId: s.id, label: additionLabel(s.toolName, s.source.label, s.kind), tokens: s.tokens, class: s.class });
    }
    added.sort((a, b) => b.tokens - a.tokens);
    out.push({ turn: i, tokens, segments: added.length, largest: added.slice(0, top) });
  }
  return out;
}

function additionLabel(toolName: string | undefined, label: string, kind: string): string {
  if (kind === 'tool-result' || kind === 'tool-input') return toolName && !label.startsWith(toolName) ? `${toolName} ${label}` : label;
  if (kind === 'assistant-text') return 'reply';
  if (kind === 'thinking') return 'thinking';
  return label;
}
