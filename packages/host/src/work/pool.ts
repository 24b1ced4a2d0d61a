import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CancelledError } from '@glassbox/core';
import { bundleWorkerAsync } from '@glassbox/store';
import type { WorkHandler } from './handler';
import type { ResultFor, WorkRequest, WorkerMessage } from './protocol';
import { runRequest } from './run';

/** Requests one thread may have under way at once (each has a cancel slot). */
const SLOTS = 64;

export interface RunOptions {
  /** Requests with the same affinity go to the same thread (the one that holds that session). */
  affinity?: string;
  onProgress?: (stage: string, done: number, total: number) => void;
  /** Aborting it cancels the request: the thread stops at its next check. */
  signal?: AbortSignal;
}

interface Thread {
  worker: Worker;
  flags: Int32Array;
  free: number[];
  busy: number;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress: RunOptions['onProgress'];
  thread: Thread;
  slot: number;
  unlisten: () => void;
}

/**
 * The host's work threads: parsing, analysis and forks run here, so the thread that answers the
 * window (and `host:info`) never waits on them. A session stays with the thread that opened it (its
 * parse and snapshots are kept there); other work goes to the least busy thread. With `size` 0, or
 * when threads cannot start, requests run inline on the calling thread, as before.
 */
export class WorkPool {
  private readonly threads: Thread[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly affinity = new Map<string, Thread>();
  private nextId = 1;
  private broken: Error | null = null;
  private closed = false;
  /** The bundled thread script, made in the background once the pool is made; null: use workerUrl. */
  private readonly source: Promise<string | null> | null;

  constructor(
    private readonly inline: WorkHandler,
    readonly size: number,
    /** The host's data folder: each thread makes its application layer for it. */
    private readonly dataDir: string,
    /** A built worker script (the desktop app's own entry); otherwise worker-entry.ts is bundled in the background. */
    private readonly workerUrl?: URL,
  ) {
    // A turn later: starting esbuild's process costs the thread that makes the host (and answers the
    // window's first list) a few milliseconds it does not need to spend yet.
    this.source = size > 0 && !workerUrl ? new Promise<void>((r) => setImmediate(r)).then(() => bundleWorkerAsync(fileURLToPath(new URL('./worker-entry.ts', import.meta.url)))) : null;
  }

  /** Why the pool runs work inline, if it fell back to it. */
  get failure(): Error | null {
    return this.broken;
  }

  async run<R extends WorkRequest>(request: R, options: RunOptions = {}): Promise<ResultFor<R>> {
    const source = this.source ? await this.source : null;
    const thread = this.size > 0 && !this.broken && !this.closed ? this.threadFor(options.affinity, source) : null;
    if (!thread) return this.runInline(request, options);
    const slot = thread.free.pop();
    if (slot === undefined) return this.runInline(request, options);
    const id = this.nextId++;
    Atomics.store(thread.flags, slot, 0);
    thread.busy++;
    thread.worker.ref();
    return new Promise<ResultFor<R>>((resolve, reject) => {
      const abort = (): void => void Atomics.store(thread.flags, slot, 1);
      if (options.signal?.aborted) abort();
      options.signal?.addEventListener('abort', abort, { once: true });
      this.pending.set(id, {
        resolve: resolve as (value: unknown) => void,
        reject,
        onProgress: options.onProgress,
        thread,
        slot,
        unlisten: () => options.signal?.removeEventListener('abort', abort),
      });
      thread.worker.postMessage({ id, slot, request });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => t.worker.terminate()));
    for (const p of this.pending.values()) p.reject(new Error('the host was closed'));
    this.pending.clear();
  }

  private runInline<R extends WorkRequest>(request: R, options: RunOptions): ResultFor<R> {
    const answer = runRequest(this.inline, request, () => options.signal?.aborted === true, (p) => options.onProgress?.(p.stage, p.done, p.total));
    if ('error' in answer) throw answerError(answer.error);
    return answer.result as ResultFor<R>;
  }

  private threadFor(affinity: string | undefined, source: string | null): Thread | null {
    const held = affinity ? this.affinity.get(affinity) : undefined;
    if (held && this.threads.includes(held)) return held;
    let thread: Thread | undefined = this.threads.reduce<Thread | undefined>((best, t) => (!best || t.busy < best.busy ? t : best), undefined);
    if ((!thread || thread.busy > 0) && this.threads.length < this.size) thread = this.spawn(source) ?? thread;
    if (!thread) return null;
    if (affinity) this.affinity.set(affinity, thread);
    return thread;
  }

  private spawn(source: string | null): Thread | undefined {
    try {
      const flags = new Int32Array(new SharedArrayBuffer(4 * SLOTS));
      const workerData = { flags: flags.buffer, dataDir: this.dataDir };
      if (!this.workerUrl && !source) throw new Error('the work thread could not be built (esbuild is missing)');
      const worker = source ? new Worker(source, { eval: true, workerData }) : new Worker(this.workerUrl as URL, { workerData });
      const thread: Thread = { worker, flags, free: Array.from({ length: SLOTS }, (_, i) => SLOTS - 1 - i), busy: 0 };
      worker.unref();
      worker.on('message', (msg: WorkerMessage) => this.receive(thread, msg));
      worker.on('error', (error) => this.fail(thread, error));
      worker.on('exit', (code) => {
        if (!this.closed) this.fail(thread, new Error(`a work thread stopped (exit ${code})`));
      });
      this.threads.push(thread);
      return thread;
    } catch (error) {
      this.broken = error as Error;
      return undefined;
    }
  }

  private receive(thread: Thread, msg: WorkerMessage): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if ('progress' in msg) {
      p.onProgress?.(msg.progress.stage, msg.progress.done, msg.progress.total);
      return;
    }
    this.pending.delete(msg.id);
    p.unlisten();
    thread.free.push(p.slot);
    thread.busy--;
    if (thread.busy === 0) thread.worker.unref();
    if ('error' in msg) p.reject(answerError(msg.error));
    else p.resolve(msg.result);
  }

  /** A thread that died: its requests fail (the window can ask again), and it is not used any more. */
  private fail(thread: Thread, error: Error): void {
    const i = this.threads.indexOf(thread);
    if (i < 0) return;
    this.threads.splice(i, 1);
    for (const [key, t] of this.affinity) if (t === thread) this.affinity.delete(key);
    for (const [id, p] of this.pending) {
      if (p.thread !== thread) continue;
      this.pending.delete(id);
      p.unlisten();
      p.reject(new Error(`the work thread stopped: ${error.message}`));
    }
    void thread.worker.terminate();
  }
}

function answerError(e: { message: string; cancelled: boolean }): Error {
  return e.cancelled ? new CancelledError(e.message) : new Error(e.message);
}
