import { visibleText } from '@glassbox/core';

/** Terminal layout helpers: every report fits 100 columns. */
export const WIDTH = 100;

/**
 * Cut to `width`. Transcript text is made visible first (its controls and invisible characters named,
 * as the output sanitiser would), so a column is measured as it will be printed.
 */
export function truncate(given: string, width: number): string {
  if (width <= 0) return '';
  const text = visibleText(given);
  return text.length > width ? text.slice(0, Math.max(0, width - 1)) + '…' : text;
}

/** Keeps the end of a path, which says the most. */
export function truncateLeft(given: string, width: number): string {
  const text = visibleText(given);
  if (text.length <= width) return text;
  return '…' + text.slice(text.length - width + 1);
}

export function padRight(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export function padLeft(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** A horizontal bar of `width` cells for a share in [0, 1]. */
export function bar(share: number, width: number): string {
  const cells = Math.max(0, Math.min(width, share * width));
  const full = Math.floor(cells);
  const partial = cells - full;
  const eighths = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
  const tail = full < width ? (eighths[Math.round(partial * 7)] ?? '') : '';
  return '█'.repeat(full) + tail;
}

export interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

/** Plain rows; colour is applied by the caller after padding so widths stay right. */
export function row(columns: Column[], cells: string[], colour?: (i: number, padded: string) => string): string {
  return columns
    .map((c, i) => {
      const raw = truncate(cells[i] ?? '', c.width);
      const padded = c.align === 'right' ? padLeft(raw, c.width) : padRight(raw, c.width);
      return colour ? colour(i, padded) : padded;
    })
    .join(' ')
    .trimEnd();
}

export function header(columns: Column[]): string {
  return row(columns, columns.map((c) => c.header));
}
