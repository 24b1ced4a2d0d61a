import type { Command } from 'commander';
import { humanBytes, untilLabel } from '@glassbox/core';
import type { KeepResult } from '@glassbox/engine';
import { glassboxFor } from '../engine';
import { UsageError, EXIT_REFUSED } from '../exit-codes';
import { outJson, type CliIO } from '../io';
import { resolveSessionPath } from '../session-args';
import { paint } from '../render/palette';

interface KeepOptions {
  all?: boolean;
  archive?: string;
  json?: boolean;
  quiet?: boolean;
}

export function registerKeep(program: Command, io: CliIO): void {
  program
    .command('keep')
    .description("store sessions in Glassbox's archive (with their subagent, tool-result and checkpoint files), so they outlive the client's clean-up; only what changed since the last keep is stored")
    .argument('[sessions...]', 'transcript files (.jsonl) or session ids')
    .option('--all', 'every session under every agent folder (cron-friendly: progress on stderr, a summary, exit 1 if any failed)')
    .option('--archive <dir>', 'the archive folder (default: $GLASSBOX_DATA_DIR/archive, $XDG_DATA_HOME/glassbox/archive, ~/.local/share/glassbox/archive)')
    .option('--quiet', 'print only the summary and failures')
    .option('--json', 'print JSON')
    .action((refs: string[], opts: KeepOptions) => runKeep(refs, opts, io));
}

function runKeep(refs: string[], opts: KeepOptions, io: CliIO): void {
  if (opts.all && refs.length > 0) throw new UsageError('give sessions or --all, not both');
  if (!opts.all && refs.length === 0) throw new UsageError('give the sessions to keep (paths or ids), or --all');
  const keeping = glassboxFor(io, { archive: opts.archive }).keeping;
  const paths = opts.all ? keeping.everySession() : refs.map((r) => resolveSessionPath(r, io));
  const archiveDir = keeping.archiveDir;
  const p = paint(io.color);
  const results: KeepResult[] = [];
  const failed: { path: string; message: string }[] = [];
  const progress = keepProgress(io, paths.length, opts.all === true);
  for (const path of paths) {
    try {
      const r = keeping.keep(path);
      results.push(r);
      if (!opts.json && !opts.quiet && !opts.all) io.out(resultLine(r));
    } catch (error) {
      // One session that cannot be kept does not stop the others; it is reported and sets exit 1.
      if (!opts.all && paths.length === 1) throw error;
      failed.push({ path, message: (error as Error).message });
      io.err(`glassbox: ${(error as Error).message}`);
    }
    progress.step();
  }
  progress.end();
  const kept = results.filter((r) => r.status === 'kept');
  const written = results.reduce((n, r) => n + r.writtenBytes, 0);
  const bytes = results.reduce((n, r) => n + r.bytes, 0);
  if (opts.json) {
    outJson(io, { archive: archiveDir, kept: kept.length, unchanged: results.length - kept.length, failed, writtenBytes: written, bytes, sessions: results });
  } else {
    for (const r of results) for (const s of r.skipped) io.err(`glassbox: left out ${s.path}: it ${s.reason}`);
    io.out(
      `${p.bold(`${kept.length} kept`)}, ${results.length - kept.length} unchanged${failed.length ? `, ${failed.length} failed` : ''} — ` +
        `${humanBytes(written)} written for ${humanBytes(bytes)} of session files, in ${archiveDir}`,
    );
  }
  if (failed.length > 0) io.exitCode = EXIT_REFUSED;
}

function resultLine(r: KeepResult): string {
  const what = r.status === 'kept' ? `kept ${r.sessionId}` : `unchanged ${r.sessionId}`;
  const cost = r.status === 'kept' ? `${r.files} file(s), ${humanBytes(r.bytes)}: ${humanBytes(r.writtenBytes)} written (${r.newChunks} new chunk(s), ${r.reusedChunks} reused)` : `${r.files} file(s), already in the archive`;
  const due = r.expiresAt ? ` · the client deletes it ${untilLabel(Date.parse(r.expiresAt), Date.now())}` : '';
  return `${what}  ${cost}${due}`;
}

/** Progress for `keep --all`: a line redrawn on a terminal, else one line per tenth (cron logs stay short). */
function keepProgress(io: CliIO, total: number, show: boolean): { step: () => void; end: () => void } {
  let done = 0;
  let lastTenth = 0;
  const tty = io.isTTY && process.stderr.isTTY === true;
  return {
    step: () => {
      done++;
      if (!show || total === 0) return;
      if (tty) process.stderr.write(`\r\x1b[2Kkeeping ${done}/${total} sessions`);
      else {
        const tenth = Math.floor((done / total) * 10);
        if (tenth > lastTenth || done === total) {
          lastTenth = tenth;
          io.err(`keeping: ${done}/${total} sessions`);
        }
      }
    },
    end: () => {
      if (show && tty && total > 0) process.stderr.write('\r\x1b[2K');
    },
  };
}
