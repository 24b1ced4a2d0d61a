import { describe, expect, it } from 'vitest';
import type { ConversationItem, ConversationView } from '@glassbox/contract';
import { conversationRows, itemCount, rowOfSegment } from './conversation-rows';
import { findHits } from './conversation-find';

function item(segmentId: string, window: number, text: string, extra: Partial<ConversationItem> = {}): ConversationItem {
  return { segmentId, kind: 'prompt', class: 'live', dead: false, label: segmentId, line: 1, tokens: 1, text, cut: 0, window, resident: window === 1, ...extra };
}

describe('the conversation rows', () => {
  const view: ConversationView = {
    items: [
      item('p', 0, 'first prompt'),
      item('call', 0, 'file_path: a.ts', { kind: 'tool-input', result: item('res', 0, 'needle and needle', { kind: 'tool-result' }) }),
      item('summary', 1, 'the summary', { kind: 'compact-summary' }),
    ],
    compactions: [{ index: 1, trigger: 'auto', at: null, line: 9, preTokens: 100, postTokens: 10, summaryTokens: 5, before: 2 }],
    unreached: 0,
    fromLastCompaction: false,
  };

  it('puts each compaction before the first item after it, and finds hits in a result on its call', () => {
    const rows = conversationRows(view);
    expect(rows.map((r) => r.key)).toEqual(['p', 'call', 'compaction-1', 'summary']);
    expect(findHits(rows, 'needle')).toEqual([1, 1]);
    expect(rowOfSegment(rows, 'res')).toBe(1);
    expect(itemCount(view)).toBe(4);
  });

  it('keeps a compaction that ends the session (nothing after it yet)', () => {
    const rows = conversationRows({ ...view, compactions: [{ ...view.compactions[0]!, before: 3 }] });
    expect(rows.at(-1)?.key).toBe('compaction-1');
  });
});
