import { isCancelled } from '@glassbox/core';
import { fail, type Result } from '@glassbox/contract';
import type { Job, Jobs } from './jobs';
import type { RunOptions } from './work/pool';

/** The thread work of a request, as a job the window can follow and cancel; a cancelled one answers so. */
export async function asJob<T>(jobs: Jobs, kind: Parameters<Jobs['run']>[0], label: string, path: string, work: (job: Job) => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await jobs.run(kind, label, path, work);
  } catch (error) {
    if (isCancelled(error)) return fail('cancelled', 'Cancelled.', 'Nothing was written.');
    throw error;
  }
}

/** A work-thread request made for a job: cancelled with it, its progress reported as the job's. */
export function runOptions(job: Job, affinity?: string): RunOptions & { signal: AbortSignal; onProgress: NonNullable<RunOptions['onProgress']> } {
  return { ...(affinity ? { affinity } : {}), signal: job.signal, onProgress: (stage, done, total) => job.progress(stage, done, total) };
}
