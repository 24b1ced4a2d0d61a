/** Long jobs (opening a big session, indexing, writing a fork): their progress and cancelling them. */

/** What a long job is doing: opening a big session, indexing, writing a fork. */
export type JobKind = 'open' | 'index' | 'compactions' | 'fork-preview' | 'fork-write' | 'fork-verify' | 'fork-write-original' | 'fork-remove';

/**
 * A long job's state, pushed as it runs (`job:progress`) and once more when it ends. The window shows
 * running jobs with a Cancel button (`job:cancel`).
 */
export interface JobProgress {
  /** Unique in this run of the host. */
  id: string;
  kind: JobKind;
  /** For people: "Opening 3c1f….jsonl", "Writing the fork". */
  label: string;
  /** The step it is on ("reading the session", "writing the fork"), when known. */
  stage?: string;
  /** Of `total`, in `unit`; total 0 while unknown. */
  done: number;
  total: number;
  unit: 'bytes' | 'files';
  state: 'running' | 'done' | 'cancelled' | 'failed';
  /** The session it is about, when it is about one. */
  path?: string;
  /** Whether `job:cancel` stops it (a job past its point of no return is not). */
  cancellable: boolean;
}

export interface JobCancelArgs {
  id: string;
}

export interface JobCancelled {
  /** False when the job had already ended (or was not found). */
  cancelled: boolean;
}
