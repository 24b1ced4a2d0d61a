import type { Command } from 'commander';
import { glassboxFor } from '../engine';
import { UsageError } from '../exit-codes';
import { outJson, type CliIO } from '../io';
import { addArchiveOption } from '../fork-support';
import { isProxyRef, showProxyPayload } from './show-proxy';

export function registerShow(program: Command, io: CliIO): void {
  const cmd = program
    .command('show')
    .description('print a payload a fork removed, back from the archive (hash-checked)')
    .argument('<fork>', "the fork id, or the path of its .jsonl file; 'proxy' (or a proxy conversation id) for what the proxy removed")
    .option('--segment <id>', 'the segment id (as inspect/clean --json print it), a record uuid, or the sha256 prefix a tombstone shows')
    .option('--raw', 'print the payload bytes as they are, even to a terminal (its escape sequences are then obeyed)')
    .option('--json', 'print JSON');
  addArchiveOption(cmd).action((ref: string, opts: { segment?: string; json?: boolean; raw?: boolean; archive?: string }) => {
    if (!opts.segment) throw new UsageError('show needs --segment <id> (a segment id, a record uuid or the sha256 prefix in a tombstone)');
    if (isProxyRef(ref)) return showProxyPayload(ref, opts.segment, io, opts);
    const shown = glassboxFor(io, { archive: opts.archive }).forks.show(ref, opts.segment);
    if (opts.json) {
      outJson(io, shown);
      return;
    }
    // Piped (or with --raw) the payload goes to stdout byte for byte; to a terminal its controls and
    // invisible characters are shown by name, never obeyed. Where it came from goes to stderr.
    const exact = opts.raw === true || !io.isTTY;
    for (const s of shown) {
      io.err(`# ${s.segmentId}  ${s.path}  sha256 ${s.sha256}`);
      if (!exact) io.out(s.text);
      else (io.raw ?? io.out)(s.text.endsWith('\n') ? s.text : `${s.text}\n`);
    }
  });
}
