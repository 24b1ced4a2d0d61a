import { fileURLToPath } from 'node:url';
import { CancelledError } from '@glassbox/core';
import { bundleWorkerAsync, ThreadCancelledError, ThreadPool, type RunOptions } from '@glassbox/store';
import type { WorkHandler } from './handler';
import type { ResultFor, WorkRequest } from './protocol';
import { runRequest } from './run';

export type { RunOptions };

/**
 * The host's work threads, over the one thread pool (store's shared/threads.ts): parsing, analysis and
 * forks run there, so the thread that answers the window (and `host:info`) never waits on them. A
 * session stays with the thread that opened it (its parse and snapshots are kept there); other work
 * goes to the least busy thread. With `size` 0, or when threads cannot start, requests run inline.
 */
export class WorkPool {
  private readonly threads: ThreadPool<WorkRequest>;

  constructor(
    inline: WorkHandler,
    readonly size: number,
    /** The host's data folder: each thread makes its application layer for it. */
    dataDir: string,
    /** A built thread script (the desktop app's own entry); otherwise worker-entry.ts is bundled in the background. */
    workerUrl?: URL,
    /** Live sessions are followed (WorkHandlerOptions.follow). */
    follow = true,
  ) {
    // A turn later: starting esbuild's process costs the thread that makes the host (and answers the
    // window's first list) a few milliseconds it does not need to spend yet.
    const bundled =
      size > 0 && !workerUrl
        ? new Promise<void>((r) => setImmediate(r)).then(() => bundleWorkerAsync(fileURLToPath(new URL('./worker-entry.ts', import.meta.url))))
        : Promise.resolve(null);
    this.threads = new ThreadPool<WorkRequest>({
      name: 'work thread',
      size,
      threadData: { dataDir, follow },
      script: async () => {
        if (workerUrl) return { url: workerUrl };
        const source = await bundled;
        return source ? { source } : null;
      },
      inline: (request, ctx) => runRequest(inline, request, () => ctx.cancelled(), (p) => ctx.progress(p.stage, p.done, p.total)),
    });
  }

  /** Why the pool runs work inline, if it fell back to it. */
  get failure(): Error | null {
    return this.threads.failure;
  }

  async run<R extends WorkRequest>(request: R, options: RunOptions = {}): Promise<ResultFor<R>> {
    try {
      return (await this.threads.run(request, options)) as ResultFor<R>;
    } catch (error) {
      if (error instanceof ThreadCancelledError) throw new CancelledError(error.message);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
