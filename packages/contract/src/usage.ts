import type { ReplyTotals } from '@glassbox/core';
/** `usage:report`: cost over every indexed session, grouped as ccusage's reports are (engine's usageReport). */
export type UsageGroupingView = 'day' | 'month' | 'project' | 'session' | 'model';
export const USAGE_GROUPING_VIEWS: readonly UsageGroupingView[] = ['day', 'month', 'project', 'session', 'model'];

export interface UsageReportArgs {
  by: UsageGroupingView;
  /** Only usage on or after this day (YYYY-MM-DD). */
  since?: string;
  /** An IANA zone the days are counted in; default the host's. */
  timeZone?: string;
}

export interface UsageFiguresView extends ReplyTotals {
  sessions: number;
  models: string[];
}

export interface UsageRowView extends UsageFiguresView {
  key: string;
  label: string;
  /** false: the session's transcript reports no usage (shown as "not reported", never $0). */
  reported: boolean;
}

export interface UsageReportView {
  by: UsageGroupingView;
  timeZone: string;
  rows: UsageRowView[];
  total: UsageFiguresView;
  notReported: number;
  priceTables: { agent: string; asOf: string; source: string }[];
  /** The index is still reading sessions: figures may grow. */
  partial: boolean;
}

const DAY = /^\d{4}-\d\d-\d\d$/;
const ZONE = /^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/;

export function usageReportArgs(raw: unknown): UsageReportArgs | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'arguments must be an object';
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['by', 'since', 'timeZone'].includes(k)) return `unexpected argument "${k}"`;
  if (!USAGE_GROUPING_VIEWS.includes(o['by'] as UsageGroupingView)) return `by must be one of ${USAGE_GROUPING_VIEWS.join(', ')}`;
  const out: UsageReportArgs = { by: o['by'] as UsageGroupingView };
  if (o['since'] !== undefined) {
    if (typeof o['since'] !== 'string' || !DAY.test(o['since'])) return 'since must be a day (YYYY-MM-DD)';
    out.since = o['since'];
  }
  if (o['timeZone'] !== undefined) {
    if (typeof o['timeZone'] !== 'string' || !ZONE.test(o['timeZone'])) return 'timeZone must be a time zone name';
    out.timeZone = o['timeZone'];
  }
  return out;
}
