import { analyzeSession } from '@glassbox/analysis';
import { isFatal, windowFigures, type AgentLocator, type LoadedSession, type SessionFollower } from '@glassbox/core';
import { nodeAnalysisPorts } from '../shared/repo-port';

/**
 * The full analysis of one session file (resident window, classes with proofs, reclaimable tokens).
 * It depends on the whole chain and on the disk now, so it cannot resume from a serialised
 * checkpoint: it is re-run when the summary has moved on (or its folder mapping changed), in a
 * worker, after the list is shown. A session the watcher sees growing is followed instead: the
 * thread keeps its parse (AgentLocator.follow) and reads only what was appended, then analyses the
 * window again, so an append costs the window and not the file.
 */
export interface AnalyzeJob {
  type: 'analyze';
  /** The agent whose transcript it is (its locator reads it). */
  agent: string;
  path: string;
  /** The folder the session's working directory is mapped to (a moved checkout); null: the cwd itself. */
  repoRoot?: string | null;
  /** Keep the parse on this thread and read the file from where it stopped next time (a live session). */
  follow?: boolean;
}

export type AnalyzeResult =
  | {
      ok: true;
      /** The byte length the analysis saw (the file may have grown since the summary). */
      bytes: number;
      estimatedTokens: number;
      reportedTokens: number | null;
      /** The window the figures are a share of (core's windowFigures): reported, else estimated. */
      windowTokens: number;
      /** What the default fork removes, net of its tombstones (core's windowFigures). */
      reclaimableTokens: number;
      byClass: Record<string, number>;
      /** The folder the disk was checked in, when it was not the recorded cwd. */
      repoRoot: string | null;
    }
  | { ok: false; code: string | null; message: string };

export function runAnalyze(job: AnalyzeJob, locator: AgentLocator): AnalyzeResult {
  try {
    // The index keeps figures only: the reader may leave out previews.
    return analysisOf(job.follow ? followed(job.path, locator) : locator.load(job.path, { figuresOnly: true }), job.repoRoot ?? null);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return { ok: false, code: e.code ?? null, message: e.message };
  }
}

/** The figures of a session read (shared with the index pass that summarises it from the same read). */
export function analysisOf({ session, subagents }: LoadedSession, repoRoot: string | null): AnalyzeResult {
  try {
    if (isFatal(session.problems)) {
      const p = session.problems.find((q) => q.severity === 'error');
      return { ok: false, code: p?.code ?? null, message: p?.message ?? 'the session cannot be read' };
    }
    const snap = analyzeSession(session, nodeAnalysisPorts(), { subagents, repoRoot });
    const figures = windowFigures(snap);
    const byClass: Record<string, number> = {};
    for (const [cls, v] of Object.entries(snap.reclaimable.byClass)) if (v.tokens > 0) byClass[cls] = v.tokens;
    return {
      ok: true,
      bytes: session.stats.bytes,
      estimatedTokens: snap.context.estimatedTokens,
      reportedTokens: snap.context.reportedTokens,
      windowTokens: figures.windowTokens,
      reclaimableTokens: figures.reclaimableTokens,
      byClass,
      repoRoot,
    };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return { ok: false, code: e.code ?? null, message: e.message };
  }
}

/** Live sessions this thread follows, the most recently analysed last (a few: each holds its window). */
const following = new Map<string, SessionFollower>();
const MAX_FOLLOWED = 4;

/** The session read from where this thread's last read of it stopped; read whole when it was not only appended to. */
function followed(path: string, locator: AgentLocator): LoadedSession {
  const held = following.get(path);
  following.delete(path);
  const updated = held?.update();
  let follower = updated ? held : undefined;
  if (!follower && locator.follow) {
    try {
      follower = locator.follow(path);
    } catch {
      // The ordinary read says what is wrong with the file.
    }
  }
  if (!follower) return locator.load(path);
  following.set(path, follower);
  while (following.size > MAX_FOLLOWED) following.delete(following.keys().next().value as string);
  return follower.loaded;
}
