import { availableParallelism } from 'node:os';
import type { AgentRegistry } from '@glassbox/core';
import { ThreadCancelledError, ThreadPool, ThreadStoppedError, type ThreadAnswer } from '../shared/threads';
import { runJob, type Job, type JobResult } from './worker-main';
import { bundledWorkerSource } from './worker-source';

/** What a job answers when its refresh was cancelled before its turn came (it never ran). */
export const SKIPPED = { ok: false as const, code: 'cancelled', message: 'cancelled before it ran' };

/** What a job answers when the thread running it stopped: nothing it did is kept, and the next refresh tries the file again. */
export interface ThreadStopped {
  ok: false;
  code: 'thread_stopped';
  message: string;
}

export function isThreadStopped(result: unknown): result is ThreadStopped {
  return typeof result === 'object' && result !== null && (result as { code?: unknown }).code === 'thread_stopped';
}

/** One job, answered as the index expects: a failure of the job is its result, never a throw. */
export function answerJob(job: Job, agents: AgentRegistry): ThreadAnswer {
  try {
    return { result: runJob(job, agents) };
  } catch (error) {
    return { result: { ok: false, code: null, message: String((error as Error)?.message ?? error) } };
  }
}

/**
 * The index's summaries and analyses over the one thread pool (shared/threads.ts: a thread per core by
 * default, one job each at a time so the queue balances big files over them), or inline when `size` is
 * 0. A job whose thread stopped answers ThreadStopped; one cancelled before its turn answers SKIPPED.
 */
export class JobPool {
  private readonly threads: ThreadPool<Job>;

  /**
   * `agents`: the index's own, for jobs run inline (a thread's entry builds its own). `workerUrl`: a
   * thread script to start instead of the bundled one (the desktop app passes its built entry); without
   * it, the thread's code is bundled once by esbuild, or else loaded through tsx.
   */
  constructor(agents: AgentRegistry, size: number = Math.max(1, availableParallelism()), workerUrl?: URL) {
    this.threads = new ThreadPool<Job>({
      name: 'index thread',
      size,
      perThread: 1,
      // A bigger young generation than a thread's default: parsing makes many short-lived strings.
      resourceLimits: { maxYoungGenerationSizeMb: 64 },
      script: async () => {
        if (workerUrl) return { url: workerUrl };
        const source = bundledWorkerSource();
        return source ? { source } : { url: new URL('./worker/entry.mjs', import.meta.url) };
      },
      inline: (job) => answerJob(job, agents),
    });
  }

  /** Why the pool runs jobs inline, if it fell back to it. */
  get failure(): Error | null {
    return this.threads.failure;
  }

  /** `affinity`: jobs that name the same one run on the same thread (an analysis that follows its file). */
  async run<J extends Job>(job: J, signal?: AbortSignal, affinity?: string): Promise<JobResult<J> | ThreadStopped | typeof SKIPPED> {
    try {
      return (await this.threads.run(job, { ...(signal ? { signal } : {}), ...(affinity ? { affinity } : {}) })) as JobResult<J>;
    } catch (error) {
      if (error instanceof ThreadCancelledError) return SKIPPED;
      if (error instanceof ThreadStoppedError) return { ok: false, code: 'thread_stopped', message: `${error.message}; it is read again at the next refresh` };
      throw error;
    }
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
