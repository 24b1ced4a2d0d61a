import { Command, CommanderError } from 'commander';
import { Refusal } from '@glassbox/engine';
import { IndexUnavailable, onPrivacyNotice } from '@glassbox/store';
import { EXIT_BAD_INPUT, EXIT_REFUSED, EXIT_UNEXPECTED, UsageError, environmentError } from './exit-codes';
import { guardedIO, processIO, type CliIO } from './io';
import { COMMANDS } from './commands/registry';

const VERSION = '0.1.0';

export function buildProgram(io: CliIO): Command {
  const program = new Command('glassbox')
    .description('See what is really resident in a coding agent\'s context window, and remove only what is provably dead.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });
  for (const register of COMMANDS) register(program, io);
  return program;
}

/**
 * Runs the CLI and returns its exit code. Errors become messages, never stack traces: bad input is 2,
 * a refusal (nothing done: a lock, a full disk, a read-only folder) is 1, and 70 is kept for what can
 * only be a bug in Glassbox. Text from transcripts never reaches the terminal raw (guardedIO).
 */
export async function main(argv: readonly string[], given: CliIO = processIO()): Promise<number> {
  // Every line a command or commander prints goes through the output sanitiser (io.ts).
  const io = guardedIO(given);
  const program = buildProgram(io);
  // A data folder or archive that let other users in is made private, and said so.
  const stopNotices = onPrivacyNotice((notice) => io.err(`glassbox: ${notice}`));
  try {
    await program.parseAsync([...argv]);
    return io.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
      return EXIT_BAD_INPUT;
    }
    if (error instanceof UsageError) {
      io.err(`glassbox: ${error.message}`);
      return error.exitCode;
    }
    // A use case that could not be done: what was named does not exist (2), or nothing was changed (1).
    if (error instanceof Refusal) {
      io.err(`glassbox: ${error.message}`);
      return error.bad ? EXIT_BAD_INPUT : EXIT_REFUSED;
    }
    if (error instanceof IndexUnavailable) {
      io.err(`glassbox: ${error.message}`);
      return error.kind === 'bad_path' ? EXIT_BAD_INPUT : EXIT_REFUSED;
    }
    const env = environmentError(error);
    if (env) {
      io.err(`glassbox: ${env.message}`);
      return env.exitCode;
    }
    io.err(`glassbox: unexpected error: ${(error as Error).message}`);
    if (io.env['GLASSBOX_DEBUG']) io.err(String((error as Error).stack));
    return EXIT_UNEXPECTED;
  } finally {
    stopNotices();
  }
}
