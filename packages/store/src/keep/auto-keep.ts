import type { KeptMark } from './marks';

/** What the automatic keeper needs to know of a listed session. */
export interface AutoKeepRow {
  path: string;
  kind: 'session' | 'subagent';
  mtimeMs: number;
  expiresAt: string | null;
  kept: KeptMark | null;
}

export interface AutoKeepOptions {
  /** A session is kept once nothing was written to it for this long (default 10 minutes). */
  idleMs?: number;
  /** …and whatever its state, once its deletion date is this close (default 3 days). */
  dueWithinMs?: number;
}

export const AUTO_KEEP_IDLE_MS = 10 * 60_000;
const DUE_WITHIN_MS = 3 * 86_400_000;

/**
 * The sessions "keep every session automatically" keeps now: those whose newest kept version is not
 * the file as it is (never kept, or changed since), once they have been idle for a while, and any whose
 * client is about to delete them; the most urgent first. A session whose kept version is current (and
 * an archive copy of a deleted one) needs nothing, so a session is kept again only after it changed.
 */
export function autoKeepPlan(rows: readonly AutoKeepRow[], now: number, options: AutoKeepOptions = {}): { path: string; reason: 'idle' | 'due' }[] {
  const idle = options.idleMs ?? AUTO_KEEP_IDLE_MS;
  const dueWithin = options.dueWithinMs ?? DUE_WITHIN_MS;
  const out: { path: string; reason: 'idle' | 'due'; at: number }[] = [];
  for (const r of rows) {
    if (r.kind !== 'session' || r.kept?.gone || r.kept?.current) continue;
    const due = r.expiresAt === null ? Infinity : Date.parse(r.expiresAt);
    if (due - now <= dueWithin) out.push({ path: r.path, reason: 'due', at: due });
    else if (now - r.mtimeMs >= idle) out.push({ path: r.path, reason: 'idle', at: due });
  }
  return out.sort((a, b) => (a.reason === b.reason ? a.at - b.at : a.reason === 'due' ? -1 : 1)).map(({ path, reason }) => ({ path, reason }));
}
