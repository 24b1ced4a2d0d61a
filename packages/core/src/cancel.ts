/**
 * A long job stopped on request (the window's Cancel button). Thrown from a progress callback, it
 * ends the work where it stands; whoever ran the job removes what it had written.
 */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';

  constructor(message = 'Cancelled.') {
    super(message);
  }
}

export function isCancelled(error: unknown): error is CancelledError {
  return error instanceof Error && error.name === 'CancelledError';
}

/** Bytes read of a file, told as a long read goes on; the callback may throw CancelledError to stop it. */
export type ReadProgress = (bytesRead: number, totalBytes: number) => void;
