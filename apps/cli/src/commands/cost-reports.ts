import { humanTokens } from '@glassbox/core';
import { indexUsageSource, usageReport, USAGE_GROUPINGS, type UsageFigures, type UsageGrouping, type UsageReport } from '@glassbox/engine';
import { UsageError } from '../exit-codes';
import { outJson, type CliIO } from '../io';
import { AGENTS } from '../agents';
import { paint, type Paint } from '../render/palette';
import { header, row, truncate, type Column } from '../render/layout';
import { openCliIndex, parseSince, printNotices, progressReporter } from './index-shared';

export interface CostOptions {
  prices?: string;
  by?: string;
  since?: string;
  timezone?: string;
  db?: string;
  workers?: string;
  refresh: boolean;
  json?: boolean;
}

/** `glassbox cost [--by day|month|project|session|model]`: totals over every indexed session, ccusage's reports. */
export async function usageCommand(io: CliIO, session: string | undefined, opts: CostOptions): Promise<void> {
  if (session !== undefined) throw new UsageError('--by reports over every session: give no session, or leave out --by');
  if (opts.prices) throw new UsageError('--prices prices one session: a report over every session uses each agent\'s dated table');
  const by = (opts.by ?? 'day') as UsageGrouping;
  if (!USAGE_GROUPINGS.includes(by)) throw new UsageError(`--by ${opts.by}: use one of ${USAGE_GROUPINGS.join(', ')}`);
  const timeZone = opts.timezone ?? io.env['TZ'] ?? undefined;
  if (timeZone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone });
    } catch {
      throw new UsageError(`--timezone ${timeZone}: not a time zone (give one like Europe/Berlin or UTC)`);
    }
  }
  let since: string | undefined;
  if (opts.since) {
    const d = /^\d{4}-\d\d-\d\d$/.test(opts.since) ? opts.since : parseSince(opts.since)?.toISOString().slice(0, 10);
    if (!d) throw new UsageError(`--since ${opts.since}: give a day (2026-11-01) or a span (7d, 2w)`);
    since = d;
  }
  const index = openCliIndex(io, { ...(opts.db ? { db: opts.db } : {}), ...(opts.workers ? { workers: opts.workers } : {}) });
  try {
    if (opts.refresh) {
      const progress = progressReporter(io, { plain: false });
      const report = await index.refresh({ analyze: false, onProgress: progress.onProgress });
      progress.end();
      printNotices(io, index, report);
    }
    const report = usageReport(indexUsageSource(index, AGENTS.registry), { by, ...(timeZone ? { timeZone } : {}), ...(since ? { since } : {}) });
    if (opts.json) return outJson(io, report);
    io.out(renderUsage(report, paint(io.color)));
  } finally {
    await index.close();
  }
}

const NUM = (h: string, width = 8): Column => ({ header: h, width, align: 'right' });
const HEAD: Record<UsageGrouping, string> = { day: 'day', month: 'month', project: 'project', session: 'session', model: 'model' };

function usdOf(f: UsageFigures & { reported?: boolean }): string {
  if (f.reported === false) return 'not reported';
  const n = f.cost;
  const s = n === 0 ? '$0' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
  return f.unpriced > 0 ? `${s}+` : s;
}

function renderUsage(r: UsageReport, p: Paint): string {
  const wide = r.by === 'project' || r.by === 'session';
  const cols: Column[] = [
    { header: HEAD[r.by], width: wide ? 36 : r.by === 'model' ? 28 : 10 },
    NUM('sessions'),
    NUM('input'),
    NUM('output'),
    NUM('cache w', 9),
    NUM('cache r', 9),
    NUM('cost', 12),
    ...(r.by === 'model' ? [] : [{ header: 'models', width: 30 } as Column]),
  ];
  const tables = r.priceTables.map((t) => `${t.agent} ${t.asOf}`).join(', ');
  const out = [p.bold(`Cost by ${r.by}`) + p.dim(`  days in ${r.timeZone} · prices as of ${tables}`), ''];
  out.push('  ' + p.dim(header(cols)));
  const cells = (label: string, f: UsageFigures & { reported?: boolean }) => [
    truncate(label, wide ? 36 : 28),
    String(f.sessions),
    f.reported === false ? '' : humanTokens(f.input),
    f.reported === false ? '' : humanTokens(f.output),
    f.reported === false ? '' : humanTokens(f.cacheCreation),
    f.reported === false ? '' : humanTokens(f.cacheRead),
    usdOf(f),
    ...(r.by === 'model' ? [] : [truncate(f.models.join(', '), 30)]),
  ];
  for (const x of r.rows) out.push('  ' + row(cols, cells(x.label, x)));
  out.push('  ' + p.bold(row(cols, cells('total', r.total))));
  if (r.rows.length === 0) out.push('  no usage in the index' + (r.notReported ? '' : ': run glassbox index, or give a session'));
  if (r.total.unpriced > 0) out.push(`  + ${r.total.unpriced} response(s) on a model with no price are not in the cost`);
  if (r.notReported > 0) out.push(p.dim(`  ${r.notReported} session(s) report no usage (their transcripts record none): not reported, not counted as $0`));
  return out.join('\n');
}
