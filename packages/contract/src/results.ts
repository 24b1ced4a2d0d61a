/** Every answer across the boundary: a value, or an error a person can read. */
export type IpcErrorCode =
  | 'bad_args'
  | 'unknown_channel'
  | 'not_found'
  | 'not_jsonl'
  | 'not_a_transcript'
  | 'unreadable'
  | 'changed'
  | 'refused'
  /** A fork was asked for, and the plan found nothing provably dead worth removing: nothing was written. */
  | 'nothing_to_remove'
  | 'unavailable'
  /** The person cancelled the job (job:cancel); what it had written was removed. */
  | 'cancelled'
  | 'internal';

export interface IpcError {
  code: IpcErrorCode;
  /** What happened, in one sentence a user can read. */
  message: string;
  /** What to do about it, when there is something to do. */
  hint?: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}
export function fail<T = never>(code: IpcErrorCode, message: string, hint?: string): Result<T> {
  return { ok: false, error: hint === undefined ? { code, message } : { code, message, hint } };
}
