import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

// Slots of the state shared with the thread (Int32 each).
/** Who does the work: 0 nobody yet, 1 the thread, 2 the calling thread (the thread then does nothing). */
const CLAIM = 0;
/** 1 once the thread has posted its result. */
const DONE = 1;
/** Set by the caller: stop as soon as you can. */
export const ABORT = 2;
/** Bumped by the caller whenever there is more to do (the thread waits on it). */
export const SEQ = 3;
const SLOTS = 4;
const BY_THREAD = 1;
const BY_CALLER = 2;

/*
 * The frame every such thread runs in, as plain JavaScript evaluated by the Worker: it needs no build
 * entry, no loader and no bundler, so the same text runs under the CLI's TypeScript loader, the tests
 * and the desktop bundle. `body` runs only if the thread claims the work first, and returns the
 * result; whatever happens, the thread then posts it and says it is done, so a caller that saw the
 * claim can always wait for the end.
 */
function frame(prologue: string, body: string): string {
  return `
const { workerData } = require('node:worker_threads');
const { state, port } = workerData;
const flags = new Int32Array(state, 0, ${SLOTS});
${prologue}
if (Atomics.compareExchange(flags, ${CLAIM}, 0, ${BY_THREAD}) === 0) {
  let result = { error: 'the thread stopped' };
  try {
    result = (() => {
${body}
    })();
  } catch (error) {
    result = { error: String((error && (error.code || error.message)) || error) };
  } finally {
    port.postMessage(result);
    Atomics.store(flags, ${DONE}, 1);
    Atomics.notify(flags, ${DONE});
  }
}
`;
}

/**
 * A piece of a fork's work on a thread of its own, claimed once by either side: if the thread has not
 * begun when the caller needs the work (a thread that could not start, a busy machine), the caller
 * claims it and does it itself. Synchronous on the caller's side (Atomics.wait, receiveMessageOnPort),
 * as the fork writer is.
 */
export class ClaimedThread<R extends object> {
  readonly flags: Int32Array;
  /** Shared bytes after the flags, for the work's own counters. */
  readonly extra: SharedArrayBuffer;
  private readonly port: MessagePort;
  private settled: 'thread' | 'caller' | null = null;
  private answer: R | { error: string } | null = null;

  /**
   * `prologue` runs in the thread before the claim (e.g. to stamp a file), `body` after it; both see
   * `workerData`, `flags` and `extra` (a view is theirs to make: `workerData.extra`).
   */
  constructor(prologue: string, body: string, data: Record<string, unknown>, extraBytes = 0) {
    const state = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
    this.flags = new Int32Array(state);
    this.extra = new SharedArrayBuffer(Math.max(8, extraBytes));
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    try {
      const worker = new Worker(frame(prologue, body), { eval: true, workerData: { ...data, state, extra: this.extra, port: port2 }, transferList: [port2] });
      // A thread that cannot start never claims the work: the caller then does it.
      worker.on('error', () => {});
      worker.unref();
    } catch {
      Atomics.compareExchange(this.flags, CLAIM, 0, BY_CALLER);
    }
  }

  /** Waits (a few seconds at most) for the thread to claim the work, as tests want it to. */
  awaitClaim(): void {
    const until = Date.now() + 10_000;
    while (Atomics.load(this.flags, CLAIM) === 0 && Date.now() < until) Atomics.wait(this.flags, CLAIM, 0, 10);
  }

  /** Decides who does the work, once: true when the thread has it (wait for it), false when the caller must. */
  claim(): boolean {
    if (this.settled === null) this.settled = Atomics.compareExchange(this.flags, CLAIM, 0, BY_CALLER) === BY_THREAD ? 'thread' : 'caller';
    return this.settled === 'thread';
  }

  /** Tells a waiting thread there is more to do (or that it should look at ABORT). */
  poke(): void {
    Atomics.add(this.flags, SEQ, 1);
    Atomics.notify(this.flags, SEQ);
  }

  /** The thread's result once it is done; `whileWaiting` may throw to give up (the thread is then stopped). */
  wait(whileWaiting: () => void = () => {}): R | { error: string } {
    if (!this.claim()) return { error: 'the work was left to the caller' };
    while (Atomics.load(this.flags, DONE) === 0) {
      try {
        whileWaiting();
      } catch (error) {
        this.stop();
        throw error;
      }
      Atomics.wait(this.flags, DONE, 0, 50);
    }
    return this.result();
  }

  /** Stops the thread if it has the work, and waits until it has let go of everything it used. */
  stop(): void {
    if (!this.claim()) return;
    Atomics.store(this.flags, ABORT, 1);
    this.poke();
    while (Atomics.load(this.flags, DONE) === 0) Atomics.wait(this.flags, DONE, 0, 50);
    this.result();
  }

  private result(): R | { error: string } {
    if (this.answer === null) {
      const got = receiveMessageOnPort(this.port)?.message as R | { error: string } | undefined;
      this.port.close();
      this.answer = got ?? { error: 'the thread gave no answer' };
    }
    return this.answer;
  }
}
