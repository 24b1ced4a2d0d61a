import type { Command } from 'commander';
import { humanBytes, humanTokens } from '@glassbox/core';
import { defaultDataDir, readSettings, watchRoots, type SessionChange, type SessionIndex } from '@glassbox/store';
import { glassboxFor } from '../engine';
import type { CliIO } from '../io';
import { openCliIndex, printNotices, progressReporter, type IndexOptions } from './index-shared';
import { projectLabel, reclaimLabel, titleLabel } from './sessions';
import { usd } from './cost';
import { summaryLine } from './index-command';

export function registerWatch(program: Command, io: CliIO): void {
  program
    .command('watch')
    .description('keep the index current and print one line per change, until Ctrl-C')
    .option('--no-analysis', 'do not re-run the full analysis after each change')
    .option('--debounce <ms>', 'quiet time before a changed file is read again', '200')
    .option('--db <file>', 'the index database')
    .option('--workers <n>', 'worker threads (default: one per core)')
    .action(async (opts: IndexOptions & { analysis: boolean; debounce: string }) => {
      // Ctrl-C is taken from the start: during the first refresh it stops once that refresh is
      // stored (a second Ctrl-C quits at once); while watching, it closes the watcher and the database.
      let interrupted = false;
      let wake: () => void = () => undefined;
      const stopped = new Promise<void>((resolve) => (wake = resolve));
      const onSignal = () => {
        if (interrupted) process.exit(130);
        interrupted = true;
        wake();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const index = openCliIndex(io, opts);
      try {
        const progress = progressReporter(io, { plain: false });
        const report = await index.refresh({ analyze: opts.analysis, onProgress: progress.onProgress });
        progress.end();
        printNotices(io, index, report);
        io.err(summaryLine(report));
        if (interrupted) return;
        const watcher = watchRoots(index, (c) => io.out(changeLine(c)), {
          debounceMs: Number(opts.debounce) || 200,
          analyze: opts.analysis,
          onError: (e) => io.err(`glassbox: watch: ${e.message}`),
        });
        await watcher.ready;
        io.err(`watching ${index.roots.join(', ')} (Ctrl-C to stop)`);
        // "Keep every session automatically" (the app's setting) is honoured here too, once a minute.
        const keeper = readSettings(defaultDataDir(io.env)).autoKeep && index.archiveDir ? autoKeeper(index, io) : null;
        await stopped;
        if (keeper) clearInterval(keeper);
        await watcher.close();
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await index.close();
        io.err('stopped');
      }
    });
}

function changeLine(c: SessionChange): string {
  const time = new Date().toISOString().slice(11, 19);
  const r = c.row;
  if (!r) return `${time}  ${c.reason.padEnd(10)} ${c.kind === 'subagent' ? 'subagent ' : ''}${c.sessionId}  ${c.path}`;
  const who = c.kind === 'subagent' ? `subagent ${r.agentId ?? ''} of ${r.sessionId.slice(0, 8)}` : `${projectLabel(r, 30)} / ${titleLabel(r).slice(0, 40)}`;
  const figures = [
    humanBytes(r.size),
    r.contextTokens === null ? null : `context ${humanTokens(r.contextTokens)}`,
    r.stage === 'listed' ? null : `${r.turns} turns`,
    r.reclaimableTokens === null ? null : `reclaimable ${reclaimLabel(r)}`,
    r.stage === 'listed' || r.stage === 'unreadable' ? null : usd(r.totalCostUsd ?? r.costUsd),
    r.problemNote,
  ].filter(Boolean);
  return `${time}  ${c.reason.padEnd(10)} ${who}  ${figures.join(' · ')}`;
}

/** Keeps, every minute, what "keep every session automatically" keeps (keep/auto-keep.ts), one line each. */
function autoKeeper(index: SessionIndex, io: CliIO): NodeJS.Timeout {
  const keeping = glassboxFor(io).keeping;
  const tick = () => {
    for (const c of keeping.dueForKeeping(index.list())) {
      try {
        const r = keeping.keep(c.path);
        if (r.status === 'kept') io.out(`${new Date().toISOString().slice(11, 19)}  kept (${c.reason}) ${r.sessionId}  ${humanBytes(r.writtenBytes)} written`);
      } catch (error) {
        io.err(`glassbox: keep: ${(error as Error).message}`);
      }
    }
  };
  tick();
  const timer = setInterval(tick, 60_000);
  timer.unref();
  return timer;
}
