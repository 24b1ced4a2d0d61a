import { humanBytes, humanTokens } from '@glassbox/core';

export { humanBytes, humanTokens };

export function exact(n: number): string {
  return n.toLocaleString('en-US');
}

export function pct(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return '0%';
  if (share < 0.01) return '<1%';
  return `${Math.round(share * 100)}%`;
}

/** "2 min ago", "3 h ago", "Nov 28". */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '—';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  if (s < 7 * 86_400) return `${Math.round(s / 86_400)} d ago`;
  return (s > 300 * 86_400 ? DATE_WITH_YEAR : DATE).format(new Date(t));
}

// Made once: a formatter per call costs more than the rest of a list row.
const DATE = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const DATE_WITH_YEAR = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });

export function clock(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isFinite(d.getTime()) ? d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }) : '';
}

/** A token count with its unit, for places where a bare "2.67k" would not say what it counts. */
export function tokenCount(n: number): string {
  return `${humanTokens(n)} ${n === 1 ? 'token' : 'tokens'}`;
}
