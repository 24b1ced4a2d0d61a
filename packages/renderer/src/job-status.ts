import type { JobKind, JobProgress } from '@glassbox/contract';

/** How a job stands, in the words the jobs bar and the fork wizard both use. */
export function jobStatus(j: JobProgress): string {
  if (j.state === 'cancelled') return 'cancelled; nothing was left behind';
  if (j.state === 'failed') return 'failed';
  if (j.state === 'done') return 'done';
  const stage = j.stage ?? 'working';
  if (j.total <= 0) return `${stage}…`;
  const amount = j.unit === 'bytes' ? `${mb(j.done)} of ${mb(j.total)}` : `${j.done} of ${j.total} files`;
  return `${stage}: ${amount} (${Math.floor((100 * Math.min(j.done, j.total)) / j.total)}%)`;
}

function mb(bytes: number): string {
  return bytes >= 10 * 1048576 ? `${Math.round(bytes / 1048576)} MB` : `${(bytes / 1048576).toFixed(1)} MB`;
}

/**
 * Whether a job's progress belongs to the request a dialog is waiting on: the same kind of work on the
 * same session. The host names a job only in its events (the request answers at the end), so a dialog
 * that must offer Cancel while it waits recognises its job this way.
 */
export function isJobOf(p: JobProgress, kind: JobKind, path: string): boolean {
  return p.kind === kind && p.path === path;
}

/**
 * The one job a dialog waits on, given the next event heard: the first running job of its request
 * (cleared to null when the dialog starts a new request), then only that job's events.
 */
export function followJob(shown: JobProgress | null, p: JobProgress, kind: JobKind, path: string): JobProgress | null {
  if (shown) return p.id === shown.id ? p : shown;
  return isJobOf(p, kind, path) && p.state === 'running' ? p : null;
}
