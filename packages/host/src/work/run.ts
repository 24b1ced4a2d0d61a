import { isCancelled } from '@glassbox/core';
import { refusalOf } from '@glassbox/engine';
import type { WorkHandler } from './handler';
import type { WorkRequest } from './protocol';

/** Progress is passed on at most this often (and whenever the stage changes). */
const PROGRESS_MS = 100;

/** Runs one request in a work thread or inline: its result, or its error as data (cancelled or not). */
export function runRequest(
  handler: WorkHandler,
  request: WorkRequest,
  cancelled: () => boolean,
  progress: (p: { stage: string; done: number; total: number }) => void,
): { result: unknown } | { error: { message: string; cancelled: boolean } } {
  let last = 0;
  let lastStage = '';
  const ctx = {
    cancelled,
    progress(stage: string, done: number, total: number): void {
      const now = Date.now();
      if (stage === lastStage && now - last < PROGRESS_MS && done < total) return;
      last = now;
      lastStage = stage;
      progress({ stage, done, total });
    },
  };
  try {
    return { result: handler.run(request, ctx) };
  } catch (error) {
    const stopped = isCancelled(error) || refusalOf(error)?.code === 'cancelled';
    return { error: { message: (error as Error).message ?? String(error), cancelled: stopped } };
  }
}
