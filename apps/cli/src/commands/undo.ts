import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resumeInstruction, undoFork, type UndoResult } from '@glassbox/store/fork';
import { repoRootResolver } from '../mappings';
import { AGENTS } from '../agents';
import { outJson, type CliIO } from '../io';
import { paint } from '../render/palette';
import { addArchiveOption, carriedOver, forkErrorToUsage, resumeLines } from '../fork-support';

export function registerUndo(program: Command, io: CliIO): void {
  const cmd = program
    .command('undo')
    .description('write the archived original of a fork back as a NEW sibling session (never over a file)')
    .argument('<fork>', 'the fork id, or the path of its .jsonl file')
    .option('--json', 'print JSON');
  addArchiveOption(cmd).action((ref: string, opts: { json?: boolean; archive?: string }) => {
    let r: UndoResult;
    try {
      r = undoFork(ref, { env: io.env, ...(opts.archive ? { archiveDir: resolve(opts.archive) } : {}) });
    } catch (error) {
      forkErrorToUsage(error);
    }
    const cwd = r.manifest.cwd;
    const resume = resumeInstruction({ cwd, mapped: repoRootResolver(null, io.env)(cwd), sessionId: r.sessionId, sessionPath: r.path, format: AGENTS.forFile(r.path).format });
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
