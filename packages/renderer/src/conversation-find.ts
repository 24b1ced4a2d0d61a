/**
 * In-session find counts hits, not items: one entry per occurrence (case-insensitive), each the index
 * of the item it is in, in reading order. An item's label counts once when its text does not hold the words.
 */
export function findHits(items: readonly { text: string; label: string }[], query: string, cap = 10_000): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const out: number[] = [];
  items.forEach((it, i) => {
    const text = it.text.toLowerCase();
    let n = 0;
    for (let at = text.indexOf(q); at >= 0 && out.length < cap; at = text.indexOf(q, at + q.length)) {
      out.push(i);
      n++;
    }
    if (n === 0 && it.label.toLowerCase().includes(q) && out.length < cap) out.push(i);
  });
  return out;
}

/** "3 of 12 hits in 4 items", "no match", for the find bar's status. */
export function hitsLabel(hits: readonly number[], current: number): string {
  if (hits.length === 0) return 'no match';
  const items = new Set(hits).size;
  return `${current + 1} of ${hits.length} hit${hits.length === 1 ? '' : 's'} in ${items} item${items === 1 ? '' : 's'}`;
}
