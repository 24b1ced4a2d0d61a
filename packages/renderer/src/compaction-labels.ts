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


/** The one count every view gives (the CLI's words): every compaction of the thread, and how many the live conversation went through. */
export function compactionCount(h: { boundaries: number; compactions: readonly unknown[]; unreached: readonly unknown[] }): string {
  if (h.boundaries === 0) return 'No compaction';
  const all = `${h.boundaries} compaction${h.boundaries === 1 ? '' : 's'}`;
  if (h.unreached.length === 0) return `${all}, all on the live conversation`;
  return `${all}: ${h.compactions.length} on the live conversation, ${h.unreached.length} not reached by it`;
}

/** A compaction's chip: its number, trigger and share kept; a window this file holds nothing of says so instead of "kept 0%". */
export function compactionChip(c: { xray: { index: number; trigger: string }; figures: { keptTokens: number; windowTokens: number } }): string {
  const head = `#${c.xray.index} ${c.xray.trigger}`;
  if (c.figures.windowTokens <= 0) return `${head} · nothing before it in this file`;
  return `${head} · kept ${Math.round((c.figures.keptTokens / c.figures.windowTokens) * 100)}%`;
}

/**
 * The one "before" size of a compaction: the provider-reported size of the last request before it,
 * else the client's own figure, else the estimate of the window; the others, when they differ, in words for a hover.
 */
export function beforeFigure(x: { preTokens: number | null; preTokensMetadata: number | null }, windowTokens: number): { tokens: number | null; source: string; others: string } {
  const others: string[] = [];
  if (x.preTokens !== null) {
    if (x.preTokensMetadata !== null) others.push(`the client's compaction record says ${x.preTokensMetadata.toLocaleString('en-US')} (its own count, taken as it compacted)`);
    if (windowTokens > 0) others.push(`Glassbox estimates the messages it rebuilt at ${windowTokens.toLocaleString('en-US')} (the system prompt and tools are not in the file)`);
    return { tokens: x.preTokens, source: 'reported by the provider for the last request before it', others: others.join('; ') };
  }
  if (x.preTokensMetadata !== null) {
    if (windowTokens > 0) others.push(`Glassbox estimates the messages it rebuilt at ${windowTokens.toLocaleString('en-US')}`);
    return { tokens: x.preTokensMetadata, source: "the client's compaction record", others: others.join('; ') };
  }
  return windowTokens > 0 ? { tokens: windowTokens, source: 'estimated by Glassbox from the messages in the file', others: '' } : { tokens: null, source: 'no size recorded', others: '' };
}

/** Marker labels of the context chart that would overlap are left out (the marker's line stays): the x of each one drawn. */
export function markerLabelsThatFit(xs: readonly number[], minGap: number): boolean[] {
  let last = -Infinity;
  return xs.map((x) => {
    if (x - last < minGap) return false;
    last = x;
    return true;
  });
}
