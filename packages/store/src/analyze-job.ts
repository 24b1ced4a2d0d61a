import { analyzeSession } from '@glassbox/analysis';
import { isFatal, type AgentLocator } from '@glassbox/core';
import { nodeAnalysisPorts } from './repo-port';

/**
 * The full analysis of one session file (resident window, classes with proofs, reclaimable tokens).
 * It depends on the whole chain and on the disk now, so it cannot resume from a checkpoint: it is
 * re-run over the whole file when the summary has moved on, in a worker, after the list is shown.
 */
export interface AnalyzeJob {
  type: 'analyze';
  /** The agent whose transcript it is (its locator reads it). */
  agent: string;
  path: string;
}

export type AnalyzeResult =
  | {
      ok: true;
      /** The byte length the analysis saw (the file may have grown since the summary). */
      bytes: number;
      estimatedTokens: number;
      reportedTokens: number | null;
      reclaimableTokens: number;
      byClass: Record<string, number>;
    }
  | { ok: false; code: string | null; message: string };

export function runAnalyze(job: AnalyzeJob, locator: AgentLocator): AnalyzeResult {
  try {
    const { session, subagents } = locator.load(job.path);
    if (isFatal(session.problems)) {
      const p = session.problems.find((q) => q.severity === 'error');
      return { ok: false, code: p?.code ?? null, message: p?.message ?? 'the session cannot be read' };
    }
    const snap = analyzeSession(session, nodeAnalysisPorts(), { subagents });
    const byClass: Record<string, number> = {};
    for (const [cls, v] of Object.entries(snap.reclaimable.byClass)) if (v.tokens > 0) byClass[cls] = v.tokens;
    return {
      ok: true,
      bytes: session.stats.bytes,
      estimatedTokens: snap.context.estimatedTokens,
      reportedTokens: snap.context.reportedTokens,
      reclaimableTokens: snap.reclaimable.tokens,
      byClass,
    };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return { ok: false, code: e.code ?? null, message: e.message };
  }
}
