import type { Command } from 'commander';
import { deadShare, humanBytes, humanTokens, untilLabel } from '@glassbox/core';
import { SORT_KEYS, type ListQuery, type SessionRow, type SortKey } from '@glassbox/store';
import { UsageError } from '../exit-codes';
import { outJson, type CliIO } from '../io';
import { paint } from '../render/palette';
import { header, row, truncateLeft, type Column } from '../render/layout';
import { openCliIndex, printNotices, parseSince, progressReporter, relativeTime, type IndexOptions } from './index-shared';
import { usd } from './cost';
import { retentionNotices } from '../retention-notices';

interface SessionsOptions extends IndexOptions {
  project?: string;
  since?: string;
  search?: string;
  sort?: string;
  reverse?: boolean;
  limit?: string;
  json?: boolean;
  refresh: boolean;
  analysis: boolean;
}

export function registerSessions(program: Command, io: CliIO): void {
  program
    .command('sessions')
    .description('list indexed sessions (the index is brought up to date first)')
    .option('--project <text>', 'only projects whose folder or working directory contains this text')
    .option('--since <when>', 'only sessions active since a date (2026-11-01) or a span back (30m, 12h, 7d, 2w)')
    .option('--search <text>', 'full-text search over prompts, replies, tool results, file paths and commands (every word must match; each hit shown in context)')
    .option('--sort <key>', `sort by ${SORT_KEYS.join(', ')}`, 'activity')
    .option('--reverse', 'reverse the order')
    .option('--limit <n>', 'show at most n sessions')
    .option('--json', 'print JSON rows (exact figures)')
    .option('--no-refresh', 'list what the index holds without reading any transcript')
    .option('--no-analysis', 'do not run the full analysis for sessions that changed')
    .option('--db <file>', 'the index database')
    .option('--workers <n>', 'worker threads (default: one per core)')
    .action(async (opts: SessionsOptions) => {
      const query = toQuery(opts);
      const index = openCliIndex(io, opts);
      try {
        if (opts.refresh) {
          const progress = progressReporter(io, { plain: false });
          const report = await index.refresh({ analyze: opts.analysis, onProgress: progress.onProgress });
          progress.end();
          printNotices(io, index, report);
        }
        const rows = index.list(query);
        for (const n of retentionNotices(rows)) io.err(`glassbox: ${n}`);
        if (opts.json) {
          outJson(io, rows);
          return;
        }
        io.out(renderTable(rows, io.color));
        if (rows.length === 0) {
          io.out(
            query.search || query.project || query.since
              ? 'no session matches'
              : `no sessions found under ${index.roots.join(', ')}: set CLAUDE_CONFIG_DIR to a Claude config folder, or run glassbox index FILE`,
          );
        }
      } finally {
        await index.close();
      }
    });
}

function toQuery(opts: SessionsOptions): ListQuery {
  const q: ListQuery = {};
  if (opts.project) q.project = opts.project;
  if (opts.search) q.search = opts.search;
  if (opts.since) {
    const since = parseSince(opts.since);
    if (!since) throw new UsageError(`--since ${opts.since}: give a date (2026-11-01) or a span (30m, 12h, 7d, 2w)`);
    q.since = since;
  }
  if (opts.sort) {
    if (!SORT_KEYS.includes(opts.sort as SortKey)) throw new UsageError(`--sort ${opts.sort}: use one of ${SORT_KEYS.join(', ')}`);
    q.sort = opts.sort as SortKey;
  }
  if (opts.reverse) q.reverse = true;
  if (opts.limit !== undefined) {
    const n = Number(opts.limit);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--limit ${opts.limit}: give a whole number`);
    q.limit = n;
  }
  return q;
}

const COLUMNS: Column[] = [
  { header: 'project', width: 20 },
  { header: 'title', width: 30 },
  { header: 'last activity', width: 13 },
  { header: 'size', width: 8, align: 'right' },
  { header: 'context', width: 8, align: 'right' },
  { header: 'reclaim', width: 7, align: 'right' },
  { header: 'cost', width: 8, align: 'right' },
  { header: 'client deletes', width: 15 },
  { header: 'kept', width: 7 },
];

/** The working directory (home as ~), kept by its end, which says the most; else the project folder's name. */
export function projectLabel(r: SessionRow, width = 20): string {
  const home = process.env['HOME'];
  const cwd = r.cwd && home && r.cwd.startsWith(home + '/') ? '~' + r.cwd.slice(home.length) : r.cwd;
  return truncateLeft(cwd ?? r.project, width);
}

export function titleLabel(r: SessionRow): string {
  const t = r.title ?? r.firstPrompt;
  return t ? t.replace(/\s+/g, ' ').trim() : r.stage === 'unreadable' ? `(unreadable: ${r.problemNote ?? ''})` : '(no prompt)';
}

export function reclaimLabel(r: SessionRow): string {
  if (r.reclaimableTokens === null) return r.stage === 'unreadable' ? '' : '…';
  // The same share as the window's header, the wizard and inspect (core's windowFigures).
  return `${Math.round(deadShare(r.reclaimableTokens, r.windowTokens ?? r.contextTokens ?? r.estimatedTokens ?? 0) * 100)}%`;
}

function renderTable(rows: SessionRow[], color: boolean): string {
  const p = paint(color);
  const out = [p.dim(header(COLUMNS))];
  for (const r of rows) {
    out.push(
      row(COLUMNS, [
        projectLabel(r),
        titleLabel(r),
        relativeTime(r.lastActivity),
        humanBytes(r.size),
        r.contextTokens === null ? '' : humanTokens(r.contextTokens),
        reclaimLabel(r),
        r.stage === 'listed' ? '…' : usd(r.totalCostUsd),
        deletionLabel(r),
        keptLabel(r),
      ]),
    );
    // A search hit in context, its words in bold (the sanitiser shows any control in the text by name).
    if (r.snippet && r.snippet.length > 0) out.push(`  ${p.dim('↳')} ${r.snippet.map((t, i) => (i % 2 === 1 ? p.bold(t) : t)).join('')}`);
  }
  return out.join('\n');
}

/** When the agent's client deletes the session ("in 3 days", "overdue", "never"), or when it did. */
function deletionLabel(r: SessionRow, now = Date.now()): string {
  if (r.kept?.gone) return r.kept.gone.byClient ? `did ${r.kept.gone.noticedAt.slice(0, 10)}` : `gone ${r.kept.gone.noticedAt.slice(0, 10)}`;
  if (!r.retention) return '';
  return r.expiresAt === null ? 'never' : untilLabel(Date.parse(r.expiresAt), now);
}

/** "yes", "yes*" (changed since it was kept), "no" (the client deletes it), or nothing. */
function keptLabel(r: SessionRow): string {
  if (r.kept) return r.kept.current ? 'yes' : 'yes*';
  return r.expiresAt !== null ? 'no' : '';
}
