import { Worker, type ResourceLimits } from 'node:worker_threads';

/** Requests one thread may hold at once, each with its cancel slot. */
const SLOTS = 64;
/** Threads that die one after another without answering anything: past this the pool runs work inline. */
const DEATHS_BEFORE_INLINE = 3;

/** Where a thread's code comes from: a script's text (bundled), or a built file. */
export type ThreadScript = { source: string } | { url: URL };

/** What a piece of work sees while it runs, in a thread or inline: its progress out, its cancellation in. */
export interface WorkContext {
  progress(stage: string, done: number, total: number): void;
  cancelled(): boolean;
}

/** The answer a thread posts for a request: its result, or its error as data. */
export type ThreadAnswer = { result: unknown } | { error: { message: string; cancelled: boolean } };

/** Messages a thread posts: progress of a request, or its answer. */
export type ThreadMessage = { id: number; progress: { stage: string; done: number; total: number } } | ({ id: number } & ThreadAnswer);

/** What a thread is sent: the request, and its slot in the shared cancel flags. */
export interface ThreadRequest<R> {
  id: number;
  slot: number;
  request: R;
}

/** Data every thread starts with: the shared cancel flags (`flags`), and whatever the pool's owner adds. */
export interface ThreadData {
  flags: SharedArrayBuffer;
  [key: string]: unknown;
}

/** A thread stopped while it held the request (it exited, crashed or ran out of memory): nothing it did is kept. */
export class ThreadStoppedError extends Error {}

/** The request was cancelled (in its thread, or before it ran). */
export class ThreadCancelledError extends Error {}

export interface ThreadPoolOptions<R> {
  /** For messages: "index thread", "work thread". */
  name: string;
  /** Threads at most; 0 runs every request inline. */
  size: number;
  /** The thread's code, made when the first thread is needed (null: threads cannot run here; inline). */
  script: () => Promise<ThreadScript | null>;
  /** Runs a request on the calling thread: when the pool has no threads, or they cannot run. */
  inline: (request: R, ctx: WorkContext) => ThreadAnswer;
  /** Requests one thread holds at once before more wait in the queue (1: each thread one at a time, the queue balances). */
  perThread?: number;
  /** Extra data each thread starts with (beside its cancel flags). */
  threadData?: Record<string, unknown>;
  resourceLimits?: ResourceLimits;
}

export interface RunOptions {
  /** Requests with the same affinity go to the same thread (the one that holds their state). */
  affinity?: string;
  onProgress?: (stage: string, done: number, total: number) => void;
  /** Aborting it cancels the request: a waiting one never runs, a running one stops at its next check. */
  signal?: AbortSignal;
}

interface Thread {
  worker: Worker;
  flags: Int32Array;
  free: number[];
  busy: number;
  answered: boolean;
  gone: boolean;
}

interface Pending {
  request: unknown;
  options: RunOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  thread?: Thread;
  slot?: number;
  unlisten?: () => void;
}

/**
 * The one pool of worker threads Glassbox has (the index's summaries and analyses, the host's parsing,
 * analysis and forks): requests go to the least busy thread (or the one their affinity names), wait
 * in a queue when every thread is full, and can be cancelled through a shared flag the thread checks.
 * A thread that dies — an error, or an exit with no error at all — fails the requests it held with a
 * ThreadStoppedError naming what happened, and a new thread takes the next request; if threads cannot
 * start here, or keep dying before answering anything, the pool runs requests inline: slower, never stuck.
 */
export class ThreadPool<R> {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly affinity = new Map<string, Thread>();
  private nextId = 1;
  private closed = false;
  private broken: Error | null = null;
  private deaths = 0;
  private scriptMade: Promise<ThreadScript | null> | null = null;
  private script: ThreadScript | null | undefined;

  constructor(private readonly options: ThreadPoolOptions<R>) {}

  /** Why the pool runs requests inline, if it fell back to it. */
  get failure(): Error | null {
    return this.broken;
  }

  run(request: R, options: RunOptions = {}): Promise<unknown> {
    if (options.signal?.aborted) return Promise.reject(new ThreadCancelledError('cancelled before it ran'));
    if (this.options.size <= 0 || this.broken || this.closed) return this.runInline(request, options);
    return new Promise((resolve, reject) => {
      this.queue.push({ request, options, resolve, reject });
      void this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => t.worker.terminate()));
    const stopped = new Error(`the ${this.options.name} pool was closed`);
    for (const p of this.pending.values()) p.reject(stopped);
    this.pending.clear();
    for (const q of this.queue.splice(0)) q.reject(stopped);
  }

  private runInline(request: R, options: RunOptions): Promise<unknown> {
    return Promise.resolve().then(() => {
      const ctx: WorkContext = { cancelled: () => options.signal?.aborted === true, progress: (s, d, t) => options.onProgress?.(s, d, t) };
      const answer = this.options.inline(request, ctx);
      if ('error' in answer) throw errorOf(answer.error);
      return answer.result;
    });
  }

  private async pump(): Promise<void> {
    if (this.script === undefined) {
      this.scriptMade ??= this.options.script().catch(() => null);
      this.script = await this.scriptMade;
      if (this.script === null) this.broken ??= new Error(`${this.options.name}s could not be built here`);
    }
    while (this.queue.length > 0 && !this.closed) {
      if (this.broken) {
        for (const q of this.queue.splice(0)) this.runInline(q.request as R, q.options).then(q.resolve, q.reject);
        return;
      }
      const next = this.queue[0] as Pending;
      if (next.options.signal?.aborted) {
        this.queue.shift();
        next.reject(new ThreadCancelledError('cancelled before it ran'));
        continue;
      }
      const thread = this.threadFor(next.options.affinity);
      if (!thread) return;
      this.queue.shift();
      this.send(thread, next);
    }
  }

  private threadFor(affinity: string | undefined): Thread | null {
    const capacity = Math.min(SLOTS, this.options.perThread ?? SLOTS);
    const live = this.threads.filter((t) => !t.gone);
    const held = affinity ? this.affinity.get(affinity) : undefined;
    if (held && !held.gone) return held.busy < capacity ? held : null;
    let best = live.reduce<Thread | undefined>((b, t) => (!b || t.busy < b.busy ? t : b), undefined);
    if ((!best || best.busy > 0) && live.length < this.options.size) best = this.spawn() ?? best;
    if (!best || best.busy >= capacity) return null;
    if (affinity) this.affinity.set(affinity, best);
    return best;
  }

  private send(thread: Thread, p: Pending): void {
    const slot = thread.free.pop() as number;
    const id = this.nextId++;
    Atomics.store(thread.flags, slot, 0);
    thread.busy++;
    thread.worker.ref();
    const abort = (): void => void Atomics.store(thread.flags, slot, 1);
    p.options.signal?.addEventListener('abort', abort, { once: true });
    Object.assign(p, { thread, slot, unlisten: () => p.options.signal?.removeEventListener('abort', abort) });
    this.pending.set(id, p);
    thread.worker.postMessage({ id, slot, request: p.request } satisfies ThreadRequest<unknown>);
  }

  private spawn(): Thread | undefined {
    const script = this.script;
    if (!script) return undefined;
    try {
      const flags = new Int32Array(new SharedArrayBuffer(4 * SLOTS));
      const workerData: ThreadData = { ...(this.options.threadData ?? {}), flags: flags.buffer as SharedArrayBuffer };
      const common = { workerData, ...(this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {}) };
      const worker = 'source' in script ? new Worker(script.source, { ...common, eval: true }) : new Worker(script.url, common);
      const thread: Thread = { worker, flags, free: Array.from({ length: SLOTS }, (_, i) => SLOTS - 1 - i), busy: 0, answered: false, gone: false };
      worker.unref();
      worker.on('message', (msg: ThreadMessage) => this.receive(thread, msg));
      worker.on('error', (error) => this.gone(thread, error.message, error));
      worker.on('exit', (code) => this.gone(thread, `exit code ${code}`, null));
      this.threads.push(thread);
      return thread;
    } catch (error) {
      this.broken ??= error as Error;
      return undefined;
    }
  }

  private receive(thread: Thread, msg: ThreadMessage): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if ('progress' in msg) {
      p.options.onProgress?.(msg.progress.stage, msg.progress.done, msg.progress.total);
      return;
    }
    this.pending.delete(msg.id);
    p.unlisten?.();
    thread.free.push(p.slot as number);
    thread.busy--;
    thread.answered = true;
    this.deaths = 0;
    if (thread.busy === 0) thread.worker.unref();
    if ('error' in msg) p.reject(errorOf(msg.error));
    else p.resolve(msg.result);
    void this.pump();
  }

  /** A thread ended (an error event and then an exit, or an exit alone: the first settles it). */
  private gone(thread: Thread, what: string, error: Error | null): void {
    if (thread.gone || this.closed) return;
    thread.gone = true;
    void thread.worker.terminate();
    this.threads.splice(this.threads.indexOf(thread), 1);
    for (const [key, t] of this.affinity) if (t === thread) this.affinity.delete(key);
    const held = [...this.pending].filter(([, p]) => p.thread === thread);
    for (const [id] of held) this.pending.delete(id);
    // An error before it ever answered (its script cannot load, a syntax error): threads cannot run
    // here, so its requests and everything after them run inline. Running out of memory is a death like any other.
    if (!thread.answered && error && (error as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') {
      this.broken ??= error;
      for (const [, p] of held) {
        p.unlisten?.();
        this.runInline(p.request as R, p.options).then(p.resolve, p.reject);
      }
    } else {
      if (++this.deaths >= DEATHS_BEFORE_INLINE) this.broken ??= new Error(`${this.options.name}s keep stopping (last: ${what})`);
      for (const [, p] of held) {
        p.unlisten?.();
        p.reject(new ThreadStoppedError(`the ${this.options.name} running it stopped (${what})`));
      }
    }
    void this.pump();
  }
}

function errorOf(e: { message: string; cancelled: boolean }): Error {
  return e.cancelled ? new ThreadCancelledError(e.message) : new Error(e.message);
}

/**
 * The thread's side: answers each request with `handle`, passing on its progress, with its
 * cancellation read from the shared flag the pool sets. Call once from a thread's entry.
 */
export function serveThread<R>(port: { on(event: 'message', listener: (msg: ThreadRequest<R>) => void): void; postMessage(msg: unknown, transfer?: ArrayBuffer[]): void }, data: ThreadData, handle: (request: R, ctx: WorkContext) => ThreadAnswer, transferOf: (answer: ThreadAnswer) => ArrayBuffer[] = () => []): void {
  const flags = new Int32Array(data.flags);
  port.on('message', (msg) => {
    const ctx: WorkContext = {
      cancelled: () => Atomics.load(flags, msg.slot) === 1,
      progress: (stage, done, total) => port.postMessage({ id: msg.id, progress: { stage, done, total } }),
    };
    let answer: ThreadAnswer;
    try {
      answer = handle(msg.request, ctx);
    } catch (error) {
      answer = { error: { message: String((error as Error)?.message ?? error), cancelled: false } };
    }
    port.postMessage({ id: msg.id, ...answer }, transferOf(answer));
  });
}
