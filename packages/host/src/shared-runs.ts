import type { Result } from '@glassbox/contract';

interface Running {
  promise: Promise<Result<unknown>>;
  /** The key's generation when this run started: what it read is at least this new. */
  generation: number;
}

/**
 * Requests for the same work while it runs share that one run: one read of the file, one job the
 * window shows and can cancel. The window asks twice for one session when the file grows while it is
 * being opened (the open, then the reload the growth calls for); two reads of a 100 MB file at once
 * would show two jobs and halve the speed of both. A request that arrived after the file changed
 * since the shared run started waits for it, then runs again, so it answers with what is on disk now.
 */
export class SharedRuns {
  private readonly running = new Map<string, Running>();

  /** How many runs are going on now. */
  get size(): number {
    return this.running.size;
  }

  async run<T>(key: string, generation: () => number, work: () => Promise<Result<T>>): Promise<Result<T>> {
    const wanted = generation();
    for (;;) {
      const hit = this.running.get(key);
      if (!hit) return this.start(key, wanted, work);
      const r = (await hit.promise) as Result<T>;
      // Cancelled by the person: every request that shared the job was cancelled with it.
      if (hit.generation >= wanted || (!r.ok && r.error.code === 'cancelled')) return r;
    }
  }

  private start<T>(key: string, generation: number, work: () => Promise<Result<T>>): Promise<Result<T>> {
    const promise = work();
    const entry: Running = { promise, generation };
    this.running.set(key, entry);
    const done = (): void => {
      if (this.running.get(key) === entry) this.running.delete(key);
    };
    promise.then(done, done);
    return promise;
  }
}
