import type { Command } from 'commander';
import { humanBytes, humanTokens } from '@glassbox/core';
import { watchRoots, type SessionChange } from '@glassbox/store';
import type { CliIO } from '../io';
import { openCliIndex, progressReporter, type IndexOptions } from './index-shared';
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
      const index = openCliIndex(io, opts);
      const progress = progressReporter(io, { plain: false });
      const report = await index.refresh({ analyze: opts.analysis, onProgress: progress.onProgress });
      progress.end();
      io.err(summaryLine(report));
      const watcher = watchRoots(index, (c) => io.out(changeLine(c)), {
        debounceMs: Number(opts.debounce) || 200,
        analyze: opts.analysis,
        onError: (e) => io.err(`glassbox: watch: ${e.message}`),
      });
      await watcher.ready;
      io.err(`watching ${index.roots.join(', ')} (Ctrl-C to stop)`);
      // Stays until interrupted; then closes the watcher and the database before returning.
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await watcher.close();
      await index.close();
      io.err('stopped');
    });
}

export function changeLine(c: SessionChange): string {
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
