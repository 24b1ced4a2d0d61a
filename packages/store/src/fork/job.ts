import { ForkError } from '../shared/atomic';

/**
 * A long fork operation's link to whoever waits for it (the CLI, the app's Cancel button): where it
 * is, and a way to stop it. The writer checks for cancellation between chunks and removes what it
 * had written, as after any refusal.
 */
export interface ForkJob {
  /** `done` of `total` (bytes) of one stage ("reading the original", "writing the fork", …). */
  progress(stage: string, done: number, total: number): void;
  /** Throws a ForkError('cancelled') once the job was cancelled. */
  throwIfCancelled(): void;
}

/** A job that nobody watches and nobody cancels. */
export const NO_JOB: ForkJob = { progress: () => {}, throwIfCancelled: () => {} };

/** A job cancelled when `cancelled()` says so (an AbortSignal, a flag shared with another thread). */
export function forkJob(cancelled: () => boolean, progress: ForkJob['progress'] = () => {}): ForkJob {
  return {
    progress,
    throwIfCancelled: () => {
      if (cancelled()) throw new ForkError('cancelled', 'Cancelled: nothing was written.');
    },
  };
}
