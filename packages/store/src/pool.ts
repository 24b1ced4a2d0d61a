import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
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

/**
 * Runs jobs over worker threads (one per core by default), or inline when `size` is 0. Workers are
 * started on first use and kept until close(); they are unref'd while idle so they never keep a
 * process alive on their own. If a worker cannot start or dies, the pool carries on inline: the
 * index gets slower, never stuck.
 */
export class JobPool {
  private readonly workers: { worker: Worker; busy: boolean }[] = [];
  private readonly queue: Pending[] = [];
  private readonly waiting = new Map<number, Pending & { slot: number }>();
  private nextId = 1;
  private closed = false;
  private broken: Error | null = null;

  /**
   * `workerUrl`: a worker script to start instead of the bundled one (the desktop app passes its built
   * entry). Without it, the worker code is bundled once by esbuild, or else loaded through tsx.
   */
  constructor(
    readonly size: number = Math.max(1, availableParallelism()),
    private readonly workerUrl?: URL,
  ) {}

  /** Why the pool fell back to running jobs inline, if it did. */
  get failure(): Error | null {
    return this.broken;
  }

  /** Runs a job; one whose `signal` was aborted before its turn does not run and answers SKIPPED. */
  run<J extends Job>(job: J, signal?: AbortSignal): Promise<JobResult<J>> {
    if (this.size <= 0 || this.broken) return Promise.resolve().then(() => (signal?.aborted ? SKIPPED : runJob(job)) as JobResult<J>);
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
      let slot = this.workers.findIndex((w) => !w.busy);
      if (slot < 0 && this.workers.length < this.size) slot = this.spawn();
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
      p.resolve(p.signal?.aborted ? SKIPPED : runJob(p.job));
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
      : new Worker(this.workerUrl ?? new URL('./worker.mjs', import.meta.url), { resourceLimits });
    const slot = this.workers.length;
    const entry = { worker, busy: false };
    this.workers.push(entry);
    worker.on('message', (msg: { id: number; result: unknown }) => {
      const w = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      entry.busy = false;
      if (this.queue.length === 0) worker.unref();
      w?.resolve(msg.result);
      this.pump();
    });
    worker.on('error', (error) => {
      // Jobs it held are run again here, and so is everything after them.
      this.broken ??= error;
      entry.busy = true;
      for (const [id, w] of this.waiting) {
        if (w.slot !== slot) continue;
        this.waiting.delete(id);
        this.inline(w);
      }
      this.pump();
    });
    return slot;
  }
}
