import type { ConversationCompaction, ConversationItem, ConversationView } from '@glassbox/contract';

/** One row of the conversation list: an item (a tool call with its result), or a compaction in place. */
export type ConversationRow =
  | { type: 'item'; key: string; item: ConversationItem; text: string; label: string }
  | { type: 'compaction'; key: string; compaction: ConversationCompaction; text: string; label: string };

/**
 * The rows in reading order, each compaction before the first item after it. `text` and `label` are
 * what find searches: a tool call's row holds its result's text too, so a hit in the result finds it.
 */
export function conversationRows(view: ConversationView): ConversationRow[] {
  const rows: ConversationRow[] = [];
  let mark = 0;
  const marks = [...view.compactions].sort((a, b) => a.before - b.before);
  const pushMarks = (upTo: number) => {
    while (mark < marks.length && (marks[mark] as ConversationCompaction).before <= upTo) {
      const c = marks[mark++] as ConversationCompaction;
      rows.push({ type: 'compaction', key: `compaction-${c.index}`, compaction: c, text: '', label: `compaction ${c.index}` });
    }
  };
  view.items.forEach((item, i) => {
    pushMarks(i);
    const text = item.result ? `${item.text}\n${item.result.text}` : item.text;
    const label = item.result ? `${item.label}\n${item.result.label}` : item.label;
    rows.push({ type: 'item', key: item.segmentId, item, text, label });
  });
  pushMarks(Number.POSITIVE_INFINITY);
  return rows;
}

/** Items and results together: what "N items" counts. */
export function itemCount(view: ConversationView): number {
  return view.items.reduce((n, i) => n + (i.result ? 2 : 1), 0);
}

/** The row of a segment (a result's is its call's), or -1. */
export function rowOfSegment(rows: readonly ConversationRow[], segmentId: string): number {
  return rows.findIndex((r) => r.type === 'item' && (r.item.segmentId === segmentId || r.item.result?.segmentId === segmentId));
}
