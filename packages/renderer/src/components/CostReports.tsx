import { useEffect, useMemo, useState } from 'react';
import { formatUsd, visibleText } from '@glassbox/core';
import { USAGE_GROUPING_VIEWS, type UsageGroupingView, type UsageReportView, type UsageRowView } from '@glassbox/contract';
import { exact, humanTokens } from '../format';
import { useApp } from '../store';
import { costLabel, defaultSort, FIRST_COLUMN, GROUPING_LABEL, sortUsageRows, type UsageColumn, type UsageSort } from '../cost-report-rows';
import './CostReports.css';

const COLUMNS: { column: Exclude<UsageColumn, 'label'>; header: string; title: string }[] = [
  { column: 'sessions', header: 'sessions', title: 'Sessions with usage in this row' },
  { column: 'input', header: 'input', title: 'Input tokens (not cached)' },
  { column: 'output', header: 'output', title: 'Output tokens' },
  { column: 'cacheCreation', header: 'cache writes', title: 'Tokens written to the prompt cache' },
  { column: 'cacheRead', header: 'cache reads', title: 'Tokens read from the prompt cache' },
  { column: 'cost', header: 'cost', title: 'USD at each agent\'s dated list prices' },
];

/**
 * Cost over every indexed session, as ccusage reports it: daily, monthly, by project, session or
 * model; a chart of the cost per row, a sortable table with a total row, and the price tables' dates.
 */
export function CostReports({ onClose }: { onClose: () => void }) {
  const api = useApp((s) => s.api);
  const [by, setBy] = useState<UsageGroupingView>('day');
  const [sort, setSort] = useState<UsageSort>(defaultSort('day'));
  const [report, setReport] = useState<UsageReportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setReport(null);
    void api.invoke('usage:report', { by }).then((r) => {
      if (!live) return;
      if (r.ok) {
        setReport(r.value);
        setError(null);
      } else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [api, by]);
  const rows = useMemo(() => (report ? sortUsageRows(report.rows, sort) : []), [report, sort]);
  const choose = (g: UsageGroupingView) => {
    setBy(g);
    setSort(defaultSort(g));
  };
  const sortBy = (column: UsageColumn) => setSort((s) => (s.column === column ? { column, descending: !s.descending } : { column, descending: column !== 'label' }));
  const ariaSort = (column: UsageColumn) => (sort.column === column ? (sort.descending ? 'descending' : 'ascending') : 'none');
  return (
    <section className="cost-reports" aria-labelledby="cost-reports-title" data-testid="cost-reports">
      <header className="cost-reports-head">
        <h2 id="cost-reports-title">Cost of every session</h2>
        <div role="group" aria-label="Group the cost by" className="segmented">
          {USAGE_GROUPING_VIEWS.map((g) => (
            <button key={g} type="button" aria-pressed={by === g} onClick={() => choose(g)} data-testid={`usage-by-${g}`}>
              {GROUPING_LABEL[g]}
            </button>
          ))}
        </div>
        <button type="button" className="close" onClick={onClose} aria-label="Close the cost reports">
          ×
        </button>
      </header>
      {error ? <p role="alert">{error}</p> : null}
      {!report && !error ? <p className="loading">Adding up every session…</p> : null}
      {report ? (
        <>
          <p className="dim cost-reports-note" data-testid="usage-note">
            <strong className="cost-reports-total">{formatUsd(report.total.cost)}</strong> over {report.total.sessions} session{report.total.sessions === 1 ? '' : 's'} · days in {report.timeZone} · prices as of{' '}
            {report.priceTables.map((t) => `${t.agent} ${t.asOf}`).join(', ')}
            {report.partial ? ' · still reading sessions: figures may grow' : ''}
            {report.total.unpriced > 0 ? ` · ${report.total.unpriced} response(s) on a model with no price are not in the cost` : ''}
            {report.notReported > 0 ? ` · ${report.notReported} session(s) whose transcripts record no usage are not reported (not counted as $0)` : ''}
          </p>
          <UsageChart rows={sortUsageRows(report.rows, defaultSort(report.by)).slice(report.by === 'day' || report.by === 'month' ? -120 : 0, report.by === 'day' || report.by === 'month' ? undefined : 24)} by={report.by} />
          <div className="table-scroll" tabIndex={0} role="region" aria-label={`${GROUPING_LABEL[report.by]} cost table`}>
            <table className="cost-table usage-table" data-testid="usage-table">
              <thead>
                <tr>
                  <th scope="col" aria-sort={ariaSort('label')}>
                    <button type="button" className="sort" onClick={() => sortBy('label')}>
                      {FIRST_COLUMN[report.by]}
                    </button>
                  </th>
                  {COLUMNS.map((c) => (
                    <th key={c.column} scope="col" className="num" aria-sort={ariaSort(c.column)} title={c.title}>
                      <button type="button" className="sort" onClick={() => sortBy(c.column)}>
                        {c.header}
                      </button>
                    </th>
                  ))}
                  {report.by === 'model' ? null : <th scope="col">models</th>}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <UsageTableRow key={r.key} row={r} withModels={report.by !== 'model'} />
                ))}
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={8} className="dim">
                      No session has reported usage yet.
                    </td>
                  </tr>
                ) : null}
              </tbody>
              <tfoot>
                <UsageTableRow row={{ ...report.total, key: 'total', label: 'Total', reported: true }} withModels={report.by !== 'model'} total />
              </tfoot>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}

function UsageTableRow({ row, withModels, total }: { row: UsageRowView; withModels: boolean; total?: boolean }) {
  const cell = (n: number) => (
    <td className="num" title={exact(n)}>
      {row.reported ? humanTokens(n) : ''}
    </td>
  );
  const Head = total ? 'th' : 'td';
  return (
    <tr className={row.reported ? undefined : 'not-reported'}>
      <Head {...(total ? { scope: 'row' } : {})} className="usage-label" title={visibleText(row.key)}>
        {visibleText(row.label)}
      </Head>
      <td className="num">{row.sessions}</td>
      {cell(row.input)}
      {cell(row.output)}
      {cell(row.cacheCreation)}
      {cell(row.cacheRead)}
      <td className="num" data-testid={total ? 'usage-total' : undefined}>
        {costLabel(row)}
      </td>
      {withModels ? <td className="dim usage-models">{row.models.map((m) => visibleText(m)).join(', ')}</td> : null}
    </tr>
  );
}

/** Bars of cost per row (days and months in time order), labelled for a screen reader as a list of figures. */
function UsageChart({ rows, by }: { rows: UsageRowView[]; by: UsageGroupingView }) {
  const shown = rows.filter((r) => r.reported);
  if (shown.length === 0) return null;
  const max = Math.max(...shown.map((r) => r.cost), 1e-9);
  return (
    <figure className="usage-chart" data-testid="usage-chart">
      <figcaption className="dim">Cost {by === 'day' ? 'per day' : by === 'month' ? 'per month' : `of the ${shown.length} costliest`}</figcaption>
      <ol className="usage-bars" aria-label={`Cost ${GROUPING_LABEL[by].toLowerCase()}`}>
        {shown.map((r) => (
          <li key={r.key} title={`${visibleText(r.label)}: ${formatUsd(r.cost)}`}>
            <span className="usage-bar" style={{ blockSize: `${Math.max(2, (r.cost / max) * 100)}%` }} aria-hidden="true" />
            <span className="usage-bar-label">{shortLabel(r, by)}</span>
            <span className="sr-only">: {formatUsd(r.cost)}</span>
          </li>
        ))}
      </ol>
    </figure>
  );
}

function shortLabel(r: UsageRowView, by: UsageGroupingView): string {
  if (by === 'day') return r.key.slice(5);
  if (by === 'project') return visibleText(r.label.split(/[\\/]/).filter(Boolean).pop() ?? r.label);
  const l = visibleText(r.label);
  return l.length > 14 ? `${l.slice(0, 13)}…` : l;
}
