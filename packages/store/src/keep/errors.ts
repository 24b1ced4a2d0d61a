/** An archive problem a person can act on: what happened and what to do, never a stack trace. */
export class KeepError extends Error {
  constructor(
    readonly code:
      | 'not_kept'
      | 'ambiguous'
      | 'source_unreadable'
      | 'exists'
      | 'unwritable'
      | 'busy'
      | 'archive_corrupt'
      | 'archive_missing'
      | 'not_an_agent_session'
      | 'untrusted',
    message: string,
  ) {
    super(message);
  }
}

export function errorCode(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ? String(e.code) : String(e?.message ?? e);
}
