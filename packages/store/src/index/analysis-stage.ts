import type { RefreshReport } from './index-types';
import { isThreadStopped, SKIPPED } from './pool';
import type { ProgressFn, RefreshContext } from './refresh-context';
import { Stage } from './stage';
import type { AnalysisColumns, FileRow } from './statements';
import type { AnalyzeResult } from './analyze-job';

/**
 * Analysis: sessions whose analysis is older than their summary, re-analysed in the pool. A result
 * lands only while the row still has the summary it was made from; a failed analysis leaves no
 * figures behind (the row says why).
 */
export async function analysisStage(ctx: RefreshContext, paths: string[] | undefined, report: RefreshReport, progress: ProgressFn, signal?: AbortSignal): Promise<void> {
  const { store } = ctx;
  const pending = store.read(() => {
    const only = paths ? new Set(paths.flatMap((p) => [p, store.st.fileByPath.get(p)?.parent_path ?? p])) : null;
    const candidates = only ? [...only].map((p) => store.st.fileByPath.get(p)).filter((r): r is FileRow => !!r) : store.st.staleAnalyses.all();
    return candidates.filter((f) => f.kind === 'session' && f.level >= Stage.summarised && f.analyzed_offset !== f.parsed_offset);
  }, []);
  pending.sort((a, b) => b.size - a.size);
  const bytesTotal = pending.reduce((n, f) => n + f.size, 0);
  let done = 0;
  let bytes = 0;
  progress('analysis', 0, pending.length, 0, bytesTotal);
  await Promise.all(
    pending.map(async (f) => {
      // A refresh of named files (the watcher's: a live session) follows them, on the thread that read them before.
      const follow = paths !== undefined;
      const job = { type: 'analyze' as const, agent: f.agent, path: f.path, repoRoot: ctx.repoRootFor(f.cwd), follow };
      const result = await ctx.pool.run(job, signal, follow ? f.path : undefined);
      if (result === SKIPPED) return;
      // The row keeps the analysis it had (none, or an older one): the next refresh analyses it again.
      if (isThreadStopped(result)) return void report.notices.push(`${f.path}: ${result.message}`);
      const columns = analysisColumns(f.id, f.parsed_offset, result);
      const now = store.write(() => (store.st.updateAnalysis.run(columns).changes > 0 ? store.st.fileById.get(f.id) : undefined));
      if (now) {
        report.analysed++;
        ctx.emitChange('updated', 'analysed', now, now);
      }
      done++;
      bytes += f.size;
      progress('analysis', done, pending.length, bytes, bytesTotal);
    }),
  );
}

/** The row's analysis columns for a result made from the summary that ends at `parsedOffset` (it lands only while the row still has it). */
export function analysisColumns(id: number, parsedOffset: number, result: AnalyzeResult): AnalysisColumns {
  return {
    id,
    analyzed_offset: parsedOffset,
    estimated_tokens: result.ok ? result.estimatedTokens : null,
    reclaimable_tokens: result.ok ? result.reclaimableTokens : null,
    reclaimable_json: result.ok ? JSON.stringify(result.byClass) : null,
    window_tokens: result.ok ? result.windowTokens : null,
    analysis_repo: result.ok ? result.repoRoot : null,
    analysis_error: result.ok ? null : result.message,
  };
}
