import type { Command } from 'commander';
import { humanTokens } from '@glassbox/core';
import { glassboxFor } from '../engine';
import { EXIT_REFUSED } from '../exit-codes';
import { outJson, type CliIO } from '../io';
import { paint } from '../render/palette';
import { addArchiveOption, renderChecks } from '../fork-support';
import { reportJson } from './clean';

export function registerVerify(program: Command, io: CliIO): void {
  const cmd = program
    .command('verify')
    .description('re-run the validation of a fork against its archived original')
    .argument('<fork>', 'the fork id, or the path of its .jsonl file')
    .option('--json', 'print JSON');
  addArchiveOption(cmd).action((ref: string, opts: { json?: boolean; archive?: string }) => {
    const v = glassboxFor(io, { archive: opts.archive }).forks.verify(ref);
    if (!v.report.ok || !v.unchanged) io.exitCode = EXIT_REFUSED;
    if (opts.json) {
      outJson(io, { forkId: v.manifest.forkId, forkPath: v.manifest.forkPath, ok: v.report.ok && v.unchanged, unchangedSinceWritten: v.unchanged, appendedLines: v.appendedLines, originalOnDisk: v.originalOnDisk, original: v.manifest.original, validation: reportJson(v.report) });
      return;
    }
    const p = paint(io.color);
    const m = v.manifest;
    io.out(p.bold(`Fork ${m.forkId}`) + p.dim(`  (${m.kind === 'undo' ? 'restored original' : 'cleaned fork'}, written ${m.createdAt})`));
    io.out(`  fork      ${m.forkPath}`);
    io.out(`  original  ${m.original.path}  (${v.originalOnDisk === 'identical' ? 'still identical to the archived copy' : v.originalOnDisk === 'changed' ? 'has changed since (it was still in use); the archived copy is what the fork was made from' : 'no longer on disk; the archived copy is intact'})`);
    io.out(`  archived  sha256 ${m.original.sha256}  (hash checked)`);
    io.out(`  on disk   ${v.unchanged ? 'the fork is byte-identical to what was written' : p.bold('the fork was CHANGED after it was written')}${v.appendedLines ? `; ${v.appendedLines} line(s) appended since (a resumed session), checked without them` : ''}`);
    io.out('');
    io.out(p.bold(v.report.ok ? 'Checks' : 'Checks (FAILED)'));
    io.out(renderChecks(v.report, p).join('\n'));
    io.out('');
    io.out(`Live chain: ${v.report.original.live} records in both; estimated ${humanTokens(v.report.original.estimatedTokens)} → ${humanTokens(v.report.fork.estimatedTokens)} tokens`);
  });
}
