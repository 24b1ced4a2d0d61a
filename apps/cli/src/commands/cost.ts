import type { Command } from 'commander';
import { humanTokens } from '@glassbox/core';
import type { CostLine, CostReport } from '@glassbox/analysis';
import { glassboxFor } from '../engine';
import { outJson, type CliIO } from '../io';
import { loadPrices, resolveSessionPath } from '../session-args';
import { paint, type Paint } from '../render/palette';
import { header, row, truncate, type Column } from '../render/layout';
import { USAGE_GROUPINGS } from '@glassbox/engine';
import { usageCommand, type CostOptions } from './cost-reports';

export function registerCost(program: Command, io: CliIO): void {
  program
    .command('cost')
    .description('provider-reported usage priced per model: of one session, or over every session by day, month, project, session or model (like ccusage)')
    .argument('[session]', 'a transcript file (.jsonl) or a session id; without one, a report over every indexed session')
    .option('--prices <file>', 'a JSON price table merged over the built-in one (also GLASSBOX_PRICES); one session only')
    .option('--by <grouping>', `over every session: ${USAGE_GROUPINGS.join(', ')} (default day)`)
    .option('--since <day>', 'over every session: only usage on or after this day (2026-11-01) or a span back (7d, 2w)')
    .option('--timezone <zone>', 'over every session: the zone days are counted in (default the machine\'s)')
    .option('--db <file>', 'the index database')
    .option('--workers <n>', 'worker threads (default: one per core)')
    .option('--no-refresh', 'report what the index holds without reading any transcript')
    .option('--json', 'print JSON')
    .action(async (arg: string | undefined, opts: CostOptions) => {
      if (arg === undefined || opts.by !== undefined) return usageCommand(io, arg, opts);
      const path = resolveSessionPath(arg, io);
      const { report, problems } = glassboxFor(io).sessions.cost(path, (table) => loadPrices(opts.prices, io, table));
      // A count that is not one (negative, a fraction) was taken as 0: said, so a total is never silently short.
      for (const p of problems.filter((q) => q.code === 'invalid_usage')) io.err(`glassbox: ${p.message}`);
      if (opts.json) {
        outJson(io, report);
        return;
      }
      io.out(renderCost(report, paint(io.color)));
    });
}

export function usd(n: number | null): string {
  if (n === null) return 'n/a';
  if (n === 0) return '$0';
  return n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

function cells(l: CostLine): string[] {
  const u = l.usage;
  return [
    String(l.responses),
    humanTokens(u.inputTokens),
    humanTokens(u.outputTokens),
    humanTokens(u.cacheCreation5mTokens),
    humanTokens(u.cacheCreation1hTokens),
    humanTokens(u.cacheReadTokens),
    usd(l.cost),
  ];
}

const NUM = (header: string, width = 7): Column => ({ header, width, align: 'right' });

/** The client's own running figure beside Glassbox's, when the transcript records one. */
function clientLines(r: CostReport, p: Paint): string[] {
  const c = r.client;
  if (!c) return [];
  const pct = c.glassboxUsd === null || c.clientUsd === 0 ? '' : ` (${(((c.glassboxUsd - c.clientUsd) / c.clientUsd) * 100).toFixed(1)}%)`;
  const out = ['', p.bold('The client\'s own figure') + p.dim(`  (its cost record on line ${c.line}, for the ${c.responses} responses from line ${c.fromLine})`)];
  out.push(`  ${'Claude Code says'.padEnd(34)} ${usd(c.clientUsd).padStart(15)}${c.clientGuessed ? p.dim('  (it priced a model it has no price for)') : ''}`);
  out.push(`  ${'Glassbox, same responses'.padEnd(34)} ${usd(c.glassboxUsd).padStart(15)}${pct}`);
  for (const m of c.byModel) {
    if (!m.differs) continue;
    const more = m.clientTokens - m.glassboxTokens;
    const why = m.glassboxUsd === null ? 'no price here' : more > 0 ? `the client counts ${humanTokens(more)} more tokens: requests no record logs (compaction, titles)` : '';
    out.push(`    ${truncate(m.model, 30).padEnd(30)} client ${usd(m.clientUsd)} · Glassbox ${usd(m.glassboxUsd)}${why ? p.dim(`  ${why}`) : ''}`);
  }
  out.push(c.differs ? `  ! the two figures differ by more than 1%` : p.dim('  the two figures agree within 1%'));
  return out;
}

function renderCost(r: CostReport, p: Paint): string {
  const cols: Column[] = [
    { header: 'turn', width: 30 },
    NUM('resp', 5),
    NUM('input'),
    NUM('output'),
    NUM('write5m'),
    NUM('write1h'),
    NUM('read', 8),
    NUM('cost', 9),
  ];
  const out = [p.bold(`Cost of session ${r.sessionId}`) + p.dim(`  prices as of ${r.priceTable.asOf}`), ''];
  out.push('  ' + p.dim(header(cols)));
  for (const t of r.turns) {
    out.push('  ' + row(cols, [`${t.turn}. ${truncate(t.prompt.replace(/\s+/g, ' '), 26)}`, ...cells(t)]));
  }
  if (r.subagents.responses > 0) out.push('  ' + row(cols, ['subagents', ...cells(r.subagents)]));
  out.push('  ' + p.bold(row(cols, ['total', ...cells(r.total)])));
  out.push('');
  out.push(p.bold('By model'));
  for (const m of r.byModel) {
    out.push(`  ${truncate(m.model, 34).padEnd(34)} ${String(m.responses).padStart(5)} responses  ${usd(m.cost).padStart(9)}  ${p.dim(m.priceLabel ?? 'no price: add it with --prices')}`);
  }
  if (r.duplicateResponses > 0) out.push(p.dim(`  ${r.duplicateResponses} response(s) logged in more than one file were counted once`));
  if (r.unknownModels.length > 0) out.push(`  ! no price for ${r.unknownModels.join(', ')}: cost shown as n/a`);
  out.push(...clientLines(r, p));
  out.push(p.dim(truncate(`  ${r.priceTable.source}`, 100)));
  return out.join('\n');
}
