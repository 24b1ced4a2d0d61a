import type { CompactionItem } from '@glassbox/core';
import { visibleText } from '@glassbox/core';

/** How an item crossed the compaction, in words, for legends and titles. */
export const CARRIED_LABEL: Record<CompactionItem['carried'], string> = {
  preserved: 'kept verbatim',
  reattached: 'attached again',
  summary: 'named by the summary',
  partial: 'partly named',
  none: 'dropped',
};

/** What of an item the summary holds, in a few words. */
export function summaryHas(item: CompactionItem): string {
  if (item.carried === 'preserved' || item.carried === 'reattached') return CARRIED_LABEL[item.carried];
  const base = item.keys.find((k) => k.found === 'basename');
  if (base) return `only ${visibleText(base.text.slice(base.text.lastIndexOf('/') + 1))}`;
  const some = item.keys.filter((k) => k.found === 'verbatim').map((k) => k.text);
  if (some.length > 0) return visibleText(some.join(', '));
  return item.keys.length === 0 ? 'nothing to look for' : 'nothing';
}

/** Generic labels (a reply, a prompt) say less than the text's start; paths read relative to the working directory. Shown visibly (labels.ts). */
export function itemLabel(item: { label: string; preview: string; sourceType: string }, cwd: string | null): string {
  if (['assistant', 'prompt', 'thinking', 'meta', 'summary'].includes(item.sourceType)) return visibleText(item.preview || item.label);
  return visibleText(relative(item.label, cwd));
}

export function relative(path: string, cwd: string | null): string {
  return cwd && path.startsWith(cwd + '/') ? path.slice(cwd.length + 1) : path;
}

