import type { JobKind, JobProgress } from '@glassbox/contract';

/** A job is shown once it has run this long (a quick one never flickers into view). */
const SHOW_AFTER_MS = 200;
/** Progress is sent at most this often per job. */
const EVERY_MS = 100;

/** One long job: its cancel signal, and what the window hears of it. */
export class Job {
  readonly controller = new AbortController();
  private shown = false;
  private lastSent = 0;
  private ended = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private state: JobProgress;

  constructor(
    id: string,
    kind: JobKind,
    label: string,
    path: string | undefined,
    private readonly send: (p: JobProgress) => void,
    private readonly onEnd: () => void,
    unit: JobProgress['unit'] = 'bytes',
    showAfterMs = SHOW_AFTER_MS,
  ) {
    this.state = { id, kind, label, done: 0, total: 0, unit, state: 'running', cancellable: true, ...(path !== undefined ? { path } : {}) };
    this.timer = setTimeout(() => this.show(), showAfterMs);
    this.timer.unref?.();
  }

  get id(): string {
    return this.state.id;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Where the job is; `cancellable: false` once it is past the point where stopping would help. */
  progress(stage: string, done: number, total: number, cancellable = true): void {
    if (this.ended) return;
    this.state = { ...this.state, stage, done, total, cancellable };
    const now = Date.now();
    if (this.shown && now - this.lastSent >= EVERY_MS) {
      this.lastSent = now;
      this.send(this.state);
    }
  }

  /** Ends it; the window hears the end only if it saw the job. */
  end(state: 'done' | 'cancelled' | 'failed'): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    if (this.shown) this.send({ ...this.state, state, cancellable: false });
    this.onEnd();
  }

  /** What the window sees of it now; null while it is still inside its show delay (or ended). */
  visible(): JobProgress | null {
    return this.shown && !this.ended ? this.state : null;
  }

  private show(): void {
    if (this.ended) return;
    this.shown = true;
    this.lastSent = Date.now();
    this.send(this.state);
  }
}

/** The long jobs of a host: started by requests, shown to the window, cancelled from it. */
export class Jobs {
  private readonly running = new Map<string, Job>();
  private next = 1;

  constructor(
    private readonly send: (p: JobProgress) => void,
    private readonly showAfterMs = SHOW_AFTER_MS,
  ) {}

  start(kind: JobKind, label: string, path?: string, unit?: JobProgress['unit']): Job {
    const id = `job-${this.next++}`;
    const job = new Job(id, kind, label, path, this.send, () => this.running.delete(id), unit, this.showAfterMs);
    this.running.set(id, job);
    return job;
  }

  /** Runs `work` as a job: ended as done, failed, or cancelled when its signal was aborted. */
  async run<T>(kind: JobKind, label: string, path: string | undefined, work: (job: Job) => Promise<T>): Promise<T> {
    const job = this.start(kind, label, path);
    try {
      const value = await work(job);
      job.end(job.signal.aborted ? 'cancelled' : 'done');
      return value;
    } catch (error) {
      job.end(job.signal.aborted ? 'cancelled' : 'failed');
      throw error;
    }
  }

  /** True when the job was running and is now asked to stop. */
  cancel(id: string): boolean {
    const job = this.running.get(id);
    if (!job || job.signal.aborted) return false;
    job.controller.abort();
    return true;
  }

  /** The ids of every running job. */
  list(): string[] {
    return [...this.running.keys()];
  }

  /** Every running job the window would be showing now: what a window that connects late is told. */
  visible(): JobProgress[] {
    return [...this.running.values()].map((j) => j.visible()).filter((p): p is JobProgress => p !== null);
  }
}
