import type { Command } from 'commander';
import { DEFAULT_ELIDE_KEEP, DEFAULT_ELIDE_OVER } from '@glassbox/core';
import type { ElideOptions } from '@glassbox/analysis';
import { UsageError } from './exit-codes';

export interface ElideArgs {
  elideOver?: string;
  elideKeep?: string;
}

/** `--elide-over` and `--elide-keep`, for the commands that plan or preview elision. */
export function addElideOptions(cmd: Command): Command {
  return cmd
    .option('--elide-over <tokens>', `elided class: shorten tool results larger than this many tokens (default ${DEFAULT_ELIDE_OVER})`)
    .option('--elide-keep <chars>', `elided class: keep whole lines up to this many characters at each end (default ${DEFAULT_ELIDE_KEEP.chars}, at most ${DEFAULT_ELIDE_KEEP.lines} lines)`);
}

function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} ${value}: give a whole number (0 or more)`);
  return n;
}

/** The thresholds the flags give (the defaults for what they leave out). */
export function parseElide(opts: ElideArgs): ElideOptions {
  const overTokens = opts.elideOver === undefined ? DEFAULT_ELIDE_OVER : positive('--elide-over', opts.elideOver);
  const chars = opts.elideKeep === undefined ? DEFAULT_ELIDE_KEEP.chars : positive('--elide-keep', opts.elideKeep);
  return { overTokens, keep: { chars, lines: DEFAULT_ELIDE_KEEP.lines } };
}
