import { formatUsd } from '@glassbox/core';
import type { UsageFiguresView, UsageGroupingView, UsageRowView } from '@glassbox/contract';

/** The cost reports' sortable columns. */
export type UsageColumn = 'label' | 'sessions' | 'input' | 'output' | 'cacheCreation' | 'cacheRead' | 'cost';
export interface UsageSort {
  column: UsageColumn;
  descending: boolean;
}

export const GROUPING_LABEL: Record<UsageGroupingView, string> = { day: 'Daily', month: 'Monthly', project: 'By project', session: 'By session', model: 'By model' };
export const FIRST_COLUMN: Record<UsageGroupingView, string> = { day: 'day', month: 'month', project: 'project', session: 'session', model: 'model' };

/** Days and months read in time order; the others most expensive first (ccusage's defaults). */
export function defaultSort(by: UsageGroupingView): UsageSort {
  return by === 'day' || by === 'month' ? { column: 'label', descending: false } : { column: 'cost', descending: true };
}

export function sortUsageRows(rows: readonly UsageRowView[], sort: UsageSort): UsageRowView[] {
  const sign = sort.descending ? -1 : 1;
  const value = (r: UsageRowView): number | string => (sort.column === 'label' ? r.key : sort.column === 'cost' ? (r.reported ? r.cost : -1) : r[sort.column]);
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const c = typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : (x as number) - (y as number);
    return sign * c || a.key.localeCompare(b.key);
  });
}

/** "$1.23", "$1.23 + 4 unpriced", or "not reported" for a session whose transcript records no usage (never "$0.00"). */
export function costLabel(f: UsageFiguresView & { reported?: boolean }): string {
  if (f.reported === false) return 'not reported';
  const base = formatUsd(f.cost);
  return f.unpriced > 0 ? `${base} + ${f.unpriced} unpriced` : base;
}

/**
 * A price table's source as the window shows it: without the CLI's "override with --prices FILE"
 * (the window has no such flag; the CLI prints the full source).
 */
export function windowPriceSource(source: string): string {
  return source.replace(/[;,]\s*override[^;,]*--prices FILE/gi, '').trim();
}

/** A turn's title: its prompt's first line, else what the turn was (never a bare dash). */
export function turnTitle(turn: number, prompt: string): string {
  const first = prompt.split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 80) ?? '';
  if (first) return first;
  return turn === 0 ? 'before the first prompt' : 'a prompt with no text (an image, a file or a command)';
}
