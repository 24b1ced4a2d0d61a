import { ForkError } from '@glassbox/store/fork';
import { KeepError } from '@glassbox/store/keep';

/**
 * A use case that could not be done, in words for people: `bad` when what was named does not exist
 * (a fork, a segment, a kept session: bad input), otherwise a refusal (nothing was changed). The
 * shells turn it into an exit code or an answer to the window; any other error is a bug.
 */
export class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly bad: boolean,
  ) {
    super(message);
  }
}

const BAD_FORK = new Set(['not_a_fork', 'segment_not_found', 'source_unreadable']);
const BAD_KEEP = new Set(['not_kept', 'ambiguous', 'source_unreadable', 'not_an_agent_session']);

/** The store's own errors as a Refusal; null for anything else. */
export function refusalOf(error: unknown): Refusal | null {
  if (error instanceof Refusal) return error;
  if (error instanceof ForkError) return new Refusal(error.code, error.message, BAD_FORK.has(error.code));
  if (error instanceof KeepError) return new Refusal(error.code, error.message, BAD_KEEP.has(error.code));
  return null;
}

/** Runs a step of a use case: the store's errors leave it as a Refusal. */
export function refusing<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw refusalOf(error) ?? error;
  }
}
