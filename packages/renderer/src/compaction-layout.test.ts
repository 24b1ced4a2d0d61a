import { describe, expect, it } from 'vitest';
import type { CompactionsView } from '@glassbox/contract';
import recorded from '../../../fixtures/snapshots/18-compaction-kept-dropped.compactions.json';
import { squarify } from './compaction-layout';
import { itemLabel, summaryHas } from './compaction-labels';

// The engine's x-ray of fixture 18, recorded by `npm run snapshots:record` (a host test keeps it current).
const view = recorded as unknown as CompactionsView;
const first = view.histories[0]?.compactions[0];
const items = first ? [...first.xray.kept, ...first.xray.dropped] : [];

describe('the before/after treemaps of a compaction', () => {
  it('give every segment of the window before a cell inside the box, none overlapping, area in proportion to tokens', () => {
    expect(items.length).toBeGreaterThan(10);
    const W = 340;
    const H = 200;
    const cells = squarify(items, (i) => i.tokens, W, H);
    expect(cells).toHaveLength(items.filter((i) => i.tokens > 0).length);
    const total = items.reduce((n, i) => n + i.tokens, 0);
    const eps = 1e-6;
    for (const c of cells) {
      expect(c.x).toBeGreaterThanOrEqual(-eps);
      expect(c.y).toBeGreaterThanOrEqual(-eps);
      expect(c.x + c.w).toBeLessThanOrEqual(W + eps);
      expect(c.y + c.h).toBeLessThanOrEqual(H + eps);
      expect(c.w * c.h).toBeCloseTo((c.item.tokens / total) * W * H, 6);
    }
    for (const a of cells) {
      for (const b of cells) {
        if (a === b) continue;
        const overlap = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
        expect(overlap).toBeLessThan(1e-6);
      }
    }
  });

  it('draws nothing for an empty window or a box of no size', () => {
    expect(squarify([], () => 1, 100, 100)).toEqual([]);
    expect(squarify(items, (i) => i.tokens, 0, 100)).toEqual([]);
  });
});

describe('the words of the dropped list', () => {
  it('says what the summary has of an item: a base name only, some strings, or nothing', () => {
    const byLine = (line: number, kind: string) => items.find((i) => i.line === line && i.kind === kind);
    const read = byLine(11, 'tool-result');
    const grep = byLine(17, 'tool-result');
    const error = byLine(14, 'tool-result');
    if (!read || !grep || !error) throw new Error('fixture 18 changed');
    expect(summaryHas(read)).toBe('only report.py');
    expect(summaryHas(grep)).toBe('src/config.json, low_stock_threshold');
    expect(summaryHas(error)).toBe('nothing');
    expect(itemLabel(read, '/tmp/cc-harness-work/18-compaction-kept-dropped/project')).toBe('src/report.py');
    const reply = items.find((i) => i.kind === 'assistant-text');
    expect(reply && itemLabel(reply, null)).toBe(reply?.preview);
  });
});
