import type { Command } from 'commander';
import { glassboxFor } from '../engine';
import { outJson, type CliIO } from '../io';
import { paint } from '../render/palette';
import { addArchiveOption, carriedOver, resumeLines } from '../fork-support';

/** The original of a fork written back as a new session beside it (`undo` removes the fork instead). */
export function registerWriteOriginal(program: Command, io: CliIO): void {
  const cmd = program
    .command('write-original')
    .description('write the archived original of a fork back as a NEW sibling session (never over a file)')
    .argument('<fork>', 'the fork id, or the path of its .jsonl file')
    .option('--json', 'print JSON');
  addArchiveOption(cmd).action((ref: string, opts: { json?: boolean; archive?: string }) => {
    const glassbox = glassboxFor(io, { archive: opts.archive });
    const { undone: r, resume } = glassbox.forks.undo(ref, glassbox.mappings.resolver(null));
    if (opts.json) {
      outJson(io, { sessionId: r.sessionId, path: r.path, sidecarDir: r.sidecarDir, restoredFrom: r.manifest.restoredFrom, originalSha256: r.manifest.original.sha256, resumeCommand: resume.command, resumeNote: resume.note });
      return;
    }
    const p = paint(io.color);
    io.out(p.bold(`Original restored as a new session: ${r.sessionId}`));
    io.out(`  file      ${r.path}`);
    if (r.manifest.sidecars.length > 0) io.out(`  carried   ${carriedOver(r.manifest.sidecars)}${r.sidecarDir ? ` into ${r.sidecarDir}` : ''}`);
    io.out(`  from      the archived original of fork ${r.manifest.restoredFrom ?? '?'} (sha256 ${r.manifest.original.sha256.slice(0, 16)}…, hash checked)`);
    io.out(p.dim('  The fork and the original were left as they were.'));
    io.out('');
    for (const line of resumeLines(resume, p)) io.out(line);
  });
}
