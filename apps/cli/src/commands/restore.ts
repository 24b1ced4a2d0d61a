import type { Command } from 'commander';
import { humanBytes } from '@glassbox/core';
import { outJson, type CliIO } from '../io';
import { glassboxFor } from '../engine';
import { paint } from '../render/palette';
import { resumeLines } from '../fork-support';

export function registerRestore(program: Command, io: CliIO): void {
  program
    .command('restore')
    .description('write a kept session back where it was, as a session its client can resume (never over a file)')
    .argument('<session>', 'the session id (or an id prefix, or the path it had)')
    .option('--version <name>', 'a kept version (from glassbox archive --json); default: the newest')
    .option('--archive <dir>', 'the archive folder (default: $GLASSBOX_DATA_DIR/archive)')
    .option('--json', 'print JSON')
    .action((ref: string, opts: { version?: string; archive?: string; json?: boolean }) => {
      const glassbox = glassboxFor(io, { archive: opts.archive });
      const { restored: r, resume } = glassbox.keeping.restore(ref, { mapped: glassbox.mappings.resolver(null), ...(opts.version ? { version: opts.version } : {}) });
      if (opts.json) {
        outJson(io, { sessionId: r.sessionId, path: r.path, keptAt: r.manifest.keptAt, written: r.written, alreadyThere: r.alreadyThere, notPlaced: r.notPlaced, resumeCommand: resume.command, resumeNote: resume.note });
        return;
      }
      const p = paint(io.color);
      io.out(p.bold(`Restored ${r.sessionId}`));
      io.out(`  file      ${r.path}`);
      io.out(`  from      the version kept ${r.manifest.keptAt.slice(0, 16).replace('T', ' ')} UTC (${humanBytes(r.manifest.transcript.bytes)}, every chunk and file hash-checked)`);
      if (r.written.length > 1) io.out(`  with      ${r.written.length - 1} side file(s) (subagents, tool results, checkpoint backups)`);
      if (r.alreadyThere.length > 0) io.out(`  found     ${r.alreadyThere.length} side file(s) already there with the same bytes`);
      if (r.notPlaced.length > 0) io.out(`  left      ${r.notPlaced.join(', ')} in the archive (no place for it here)`);
      io.out(p.dim('  New files: the client counts its clean-up period from now. Keep it again to carry on keeping it.'));
      io.out('');
      for (const line of resumeLines(resume, p)) io.out(line);
    });
}
