import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AgentRegistry } from '@glassbox/core';
import { runJob, type Job, type JobResult } from './worker-main';
import { bundledWorkerSource } from './worker-source';

interface Pending {
  job: Job;
  resolve: (r: unknown) => void;
  reject: (e: Error) => void;
  signal: AbortSignal | undefined;
}

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

/** Threads that die one after another without finishing a job: past this the pool runs jobs inline. */
const DEATHS_BEFORE_INLINE = 3;

/**
 * Runs jobs over worker threads (one per core by default), or inline when `size` is 0. Workers are
 * started on first use and kept until close(); they are unref'd while idle so they never keep a
 * process alive on their own. A worker that dies (an error, or an exit with no error at all, as when
 * it runs out of memory or something ends the thread) fails the job it held with a ThreadStopped that
 * says what happened, and a new worker takes the next job; if a worker cannot start, or workers keep
 * dying without finishing anything, the pool carries on inline: the index gets slower, never stuck.
 */
export class JobPool {
  private readonly workers: { worker: Worker; busy: boolean; gone: boolean }[] = [];
  private readonly queue: Pending[] = [];
  private readonly waiting = new Map<number, Pending & { slot: number }>();
  private nextId = 1;
  private closed = false;
  private broken: Error | null = null;
  /** Workers that died in a row without finishing a job (reset by any finished job). */
  private deaths = 0;

  /**
   * `agents`: the index's own, for jobs run inline (a worker thread's entry builds its own).
   * `workerUrl`: a worker script to start instead of the bundled one (the desktop app passes its built
   * entry). Without it, the worker code is bundled once by esbuild, or else loaded through tsx.
   */
  constructor(
    private readonly agents: AgentRegistry,
    readonly size: number = Math.max(1, availableParallelism()),
    private readonly workerUrl?: URL,
  ) {}

  /** Why the pool fell back to running jobs inline, if it did. */
  get failure(): Error | null {
    return this.broken;
  }

  /** Runs a job; one whose `signal` was aborted before its turn does not run and answers SKIPPED. */
  run<J extends Job>(job: J, signal?: AbortSignal): Promise<JobResult<J> | ThreadStopped> {
    if (this.size <= 0 || this.broken) return Promise.resolve().then(() => (signal?.aborted ? SKIPPED : runJob(job, this.agents)) as JobResult<J>);
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (r: unknown) => void, reject, signal });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const ws = this.workers.splice(0);
    await Promise.all(ws.map((w) => w.worker.terminate()));
    for (const w of this.waiting.values()) w.reject(new Error('the index was closed'));
    this.waiting.clear();
    for (const q of this.queue.splice(0)) q.reject(new Error('the index was closed'));
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      if (this.broken) {
        for (const q of this.queue.splice(0)) this.inline(q);
        return;
      }
      let slot = this.workers.findIndex((w) => !w.busy && !w.gone);
      if (slot < 0 && this.workers.filter((w) => !w.gone).length < this.size) slot = this.spawn();
      if (slot < 0) return;
      const next = this.queue.shift();
      const w = this.workers[slot];
      if (!next || !w) return;
      if (next.signal?.aborted) {
        next.resolve(SKIPPED);
        continue;
      }
      const id = this.nextId++;
      w.busy = true;
      w.worker.ref();
      this.waiting.set(id, { ...next, slot });
      w.worker.postMessage({ id, job: next.job });
    }
  }

  private inline(p: Pending): void {
    try {
      p.resolve(p.signal?.aborted ? SKIPPED : runJob(p.job, this.agents));
    } catch (error) {
      p.reject(error as Error);
    }
  }

  private spawn(): number {
    // A bigger young generation than a worker's default: parsing makes many short-lived strings.
    const resourceLimits = { maxYoungGenerationSizeMb: 64 };
    const source = this.workerUrl ? null : bundledWorkerSource();
    const worker = source
      ? new Worker(source, { eval: true, resourceLimits })
      : new Worker(this.workerUrl ?? new URL('./worker/entry.mjs', import.meta.url), { resourceLimits });
    const slot = this.workers.length;
    const entry = { worker, busy: false, gone: false };
    /** It answered a job: it runs, and an end from now on is a death, not a failure to start. */
    let answered = false;
    this.workers.push(entry);
    worker.on('message', (msg: { id: number; result: unknown }) => {
      answered = true;
      const w = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      entry.busy = false;
      this.deaths = 0;
      if (this.queue.length === 0) worker.unref();
      w?.resolve(msg.result);
      this.pump();
    });
    // A worker ends with an error event and then an exit, or with an exit alone: the first one seen settles it.
    const gone = (what: string, error: Error | null): void => {
      if (entry.gone || this.closed) return;
      entry.gone = true;
      entry.busy = true;
      void worker.terminate();
      const held = [...this.waiting].filter(([, w]) => w.slot === slot);
      // An error before it ever answered (its script cannot load, a syntax error): the machine cannot run
      // these workers, so everything runs inline from now on. Running out of memory is a death like any other.
      if (!answered && error && (error as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') {
        this.broken ??= error ?? new Error(`an index thread could not start (${what})`);
        for (const [id, w] of held) {
          this.waiting.delete(id);
          this.inline(w);
        }
        return this.pump();
      }
      if (++this.deaths >= DEATHS_BEFORE_INLINE) this.broken ??= new Error(`index threads keep stopping (last: ${what})`);
      for (const [id, w] of held) {
        this.waiting.delete(id);
        w.resolve({ ok: false, code: 'thread_stopped', message: `the index thread reading it stopped (${what}); it is read again at the next refresh` } satisfies ThreadStopped);
      }
      this.pump();
    };
    worker.on('error', (error) => gone(error.message, error));
    worker.on('exit', (code) => gone(`exit code ${code}`, null));
    return slot;
  }
}
