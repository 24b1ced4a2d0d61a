import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXPORT_FORMATS, type ExportFormat } from '@glassbox/engine';
import { glassboxFor } from '../engine';
import { UsageError } from '../exit-codes';
import type { CliIO } from '../io';
import { resolveSessionPath } from '../session-args';

export function registerExport(program: Command, io: CliIO): void {
  program
    .command('export')
    .description('the whole session as Markdown or a self-contained HTML file (every compaction in place, dead segments marked)')
    .argument('<session>', 'a transcript file or a session id')
    .requiredOption('--format <md|html>', 'md: Markdown; html: one HTML file that loads nothing and runs nothing')
    .option('--out <file>', 'write it to this file (never over one that exists); default: print it')
    .option('--repo <dir>', "map the session's working directory to this folder (to prove reads gone or drifted)")
    .action((arg: string, opts: { format: string; out?: string; repo?: string }) => {
      const format = EXPORT_FORMATS.find((f) => f === opts.format);
      if (!format) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')} (got "${opts.format}")`);
      const path = resolveSessionPath(arg, io);
      const glassbox = glassboxFor(io);
      const cwd = glassbox.sessions.open(path).loaded.session.cwd;
      const repoRoot = glassbox.mappings.resolver(opts.repo ? resolve(opts.repo) : null)(cwd);
      const made = glassbox.conversations.exportSession(path, { repoRoot, format: format satisfies ExportFormat, out: opts.out ? resolve(opts.out) : null });
      if (made.writtenTo === null) {
        // Transcript text in the export is already shown, never obeyed (controls named): printed as it is.
        (io.raw ?? io.out)(made.text);
        return;
      }
      io.err(`Wrote ${made.writtenTo}: ${made.items} items, ${made.compactions} compaction${made.compactions === 1 ? '' : 's'} in place.`);
    });
}
