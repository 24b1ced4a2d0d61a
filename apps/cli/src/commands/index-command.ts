import { resolve } from 'node:path';
import type { Command } from 'commander';
import { humanBytes } from '@glassbox/core';
import type { RefreshReport } from '@glassbox/store';
import { UsageError } from '../exit-codes';
import { outJson, type CliIO } from '../io';
import { openCliIndex, printNotices, progressReporter, type IndexOptions } from './index-shared';

export function registerIndex(program: Command, io: CliIO): void {
  program
    .command('index')
    .description('index every session under CLAUDE_CONFIG_DIR (or ~/.config/claude and ~/.claude); only what changed is read')
    .argument('[files...]', 'also index these transcripts from anywhere (kept by their real path)')
    .option('--rebuild', 'forget the index and build it again from the transcripts')
    .option('--no-analysis', 'skip the full analysis (reclaimable tokens by class)')
    .option('--db <file>', 'the index database (default: $GLASSBOX_DATA_DIR, $XDG_DATA_HOME/glassbox or ~/.local/share/glassbox)')
    .option('--workers <n>', 'worker threads (default: one per core; 0 runs inline)')
    .option('--json', 'print the report as JSON')
    .action(async (files: string[], opts: IndexOptions & { rebuild?: boolean; analysis: boolean; json?: boolean }) => {
      const index = openCliIndex(io, opts);
      const progress = progressReporter(io);
      try {
        const report = await index.refresh({ rebuild: opts.rebuild === true, analyze: opts.analysis, onProgress: progress.onProgress });
        for (const f of files) {
          try {
            const row = await index.indexFile(resolve(f), { analyze: opts.analysis });
            if (!opts.json) io.out(`indexed ${row.path}`);
          } catch (error) {
            throw new UsageError(`${f}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
          }
        }
        progress.end();
        printNotices(io, index, report);
        if (opts.json) {
          outJson(io, { db: index.dbPath, roots: index.roots, ...report, opened: report.opened.length });
          return;
        }
        io.out(summaryLine(report));
        io.out(`roots: ${index.roots.join(', ')}`);
        io.out(`index: ${index.dbPath}`);
        if (report.files === 0) io.out('no sessions found: set CLAUDE_CONFIG_DIR to a Claude config folder (or its projects/ folder), or name files to index');
      } finally {
        progress.end();
        await index.close();
      }
    });
}

export function summaryLine(r: RefreshReport): string {
  const parts = [
    `${r.added} new`,
    `${r.appended} appended`,
    `${r.rewritten} re-read`,
    `${r.removed} removed`,
    `${r.unchanged} unchanged`,
  ];
  if (r.unreadable > 0) parts.push(`${r.unreadable} unreadable`);
  if (r.analysed > 0) parts.push(`${r.analysed} analysed`);
  return `${r.files} files: ${parts.join(', ')}; read ${humanBytes(r.bytesRead)} in ${(r.elapsedMs / 1000).toFixed(2)} s`;
}
