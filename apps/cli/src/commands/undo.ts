import type { Command } from 'commander';
import { glassboxFor } from '../engine';
import { outJson, type CliIO } from '../io';
import { paint } from '../render/palette';
import { addArchiveOption } from '../fork-support';

/** Undo a fork: the engine moves it, with its side files, into the archive; this parses, calls and prints. */
export function registerUndo(program: Command, io: CliIO): void {
  const cmd = program
    .command('undo')
    .description('undo a fork: move it, with its side files, into the archive (glassbox restore brings it back)')
    .argument('<fork>', 'the fork id, or the path of its .jsonl file')
    .option('--json', 'print JSON');
  addArchiveOption(cmd).action((ref: string, opts: { json?: boolean; archive?: string }) => {
    const glassbox = glassboxFor(io, { archive: opts.archive });
    const r = glassbox.forks.remove(ref);
    if (opts.json) {
      outJson(io, { forkId: r.forkId, path: r.path, originalPath: r.originalPath, removed: r.removed, keptVersion: r.keptVersion, restoreCommand: r.restoreCommand });
      return;
    }
    const p = paint(io.color);
    io.out(p.bold(`Fork ${r.forkId} undone: its ${r.removed.length} file${r.removed.length === 1 ? '' : 's'} moved into the archive`));
    io.out(`  fork      ${r.path}`);
    io.out(`  original  ${r.originalPath} (left as it was)`);
    io.out(p.dim(`  Bring it back: ${r.restoreCommand}   ·   the original as a new session: glassbox write-original ${r.forkId}`));
  });
}
