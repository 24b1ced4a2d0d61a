// The per-session table both reclaim benchmarks print (Claude Code sessions and Codex rollouts): tokens
// reclaimable by class, tombstones, net, what the fork removed and whether it validated.
import { humanTokens, type DeadClass } from '@glassbox/core';

export interface ReclaimRow {
  name: string;
  resident: number;
  reported: boolean;
  byClass: Record<DeadClass, number>;
  tombstones: number;
  net: number;
  /** The fork validated in memory; null when there was nothing to fork. */
  valid: boolean | null;
  note: string;
}

/** A count of what the fork removed, one column each. */
export interface CountColumn<R> {
  header: string;
  of: (row: R) => number;
}

export const pad = (s: string, n: number, right = false): string => (s.length >= n ? s : right ? ' '.repeat(n - s.length) + s : s + ' '.repeat(n - s.length));

/** A name no wider than the table's first column: its end kept. */
export const clip = (name: string): string => (name.length > 52 ? '…' + name.slice(name.length - 51) : name);

/** The header, one line a session and the TOTAL line. */
export function printReclaimTable<R extends ReclaimRow>(rows: readonly R[], classes: readonly DeadClass[], nameHeader: string, counts: readonly CountColumn<R>[]): void {
  const cls = classes.map((c) => (c === 'stale-superseded' ? 'superseded' : c === 'stale-drift' ? 'drift' : c));
  const cols = ['resident', ...cls, 'tombstones', 'net', 'net %', ...counts.map((c) => c.header), 'fork'];
  const line = (name: string, cells: string[]): string => `${pad(name, 52)} ${cells.map((c, i) => pad(c, i === cols.length - 1 ? 5 : 10, true)).join(' ')}`;
  const total = (f: (r: R) => number): number => rows.reduce((n, r) => n + f(r), 0);
  const resident = total((r) => r.resident);
  const net = total((r) => r.net);
  console.log(line(nameHeader, cols));
  for (const r of rows) {
    console.log(
      line(r.name, [
        `${humanTokens(r.resident)}${r.reported ? '' : '*'}`,
        ...classes.map((c) => humanTokens(r.byClass[c])),
        humanTokens(r.tombstones),
        humanTokens(r.net),
        r.resident > 0 ? `${((r.net / r.resident) * 100).toFixed(1)}%` : '-',
        ...counts.map((c) => String(c.of(r))),
        r.valid === null ? '-' : r.valid ? 'ok' : 'FAIL',
      ]) + (r.note ? `  ${r.note}` : ''),
    );
  }
  console.log(
    line('TOTAL', [
      humanTokens(resident),
      ...classes.map((c) => humanTokens(total((r) => r.byClass[c]))),
      humanTokens(total((r) => r.tombstones)),
      humanTokens(net),
      resident > 0 ? `${((net / resident) * 100).toFixed(1)}%` : '-',
      ...counts.map((c) => String(total(c.of))),
      rows.every((r) => r.valid !== false) ? 'ok' : 'FAIL',
    ]),
  );
}

/** The totals in one line (`sessions 32 · resident … · <last count> tombstoned N`) and the note on estimated rows. */
export function printReclaimSummary<R extends ReclaimRow>(rows: readonly R[], classes: readonly DeadClass[], noun: { one: string; many: string }, tombstoned: CountColumn<R>): void {
  const total = (f: (r: R) => number): number => rows.reduce((n, r) => n + f(r), 0);
  console.log(
    `\n${noun.many} ${rows.length} · resident ${humanTokens(total((r) => r.resident))} · reclaimable ${humanTokens(total((r) => classes.reduce((n, c) => n + r.byClass[c], 0)))} · tombstones ${humanTokens(total((r) => r.tombstones))} · net reclaimed ${humanTokens(total((r) => r.net))} · ${tombstoned.header} tombstoned ${total(tombstoned.of)}`,
  );
  if (rows.some((r) => r.resident > 0 && !r.reported)) console.log(`* estimated: no provider-reported usage in the ${noun.one}`);
}
