import type { SummaryState } from '@glassbox/core';
import { summarisedRow, unreadableRow } from './file-rows';
import type { ChangeReason, RefreshReport } from './index-types';
import type { SummarizeResult } from './jobs';
import { isThreadStopped, SKIPPED } from './pool';
import { clearContent, type ProgressFn, type RefreshContext, type SummaryWork } from './refresh-context';
import { Stage } from './stage';
import { analysisColumns } from './analysis-stage';
import type { AnalyzeResult } from './analyze-job';
import { SEARCH_ROWS_PER_FILE, type FileRow } from './statements';
import { indexableText } from './search-query';

/**
 * Results stored in one transaction at most (or after this wait from the first of them). Each
 * transaction costs its own: the search index's new segment and its merges, the table and index pages
 * written again to the WAL, checkpoints. A cold index of 5,000 files with two threads answering made
 * ~250 transactions of ~20 rows at 64 rows / 50 ms; at these sizes, ~25, each well under a second.
 */
const BATCH_ROWS = 256;
const BATCH_WAIT_MS = 200;

/**
 * Summary: every line of each file to work on (biggest first, for balance over the workers), from
 * its checkpoint when it was appended to. Results are stored in small batches as they arrive, one
 * transaction per batch, so rows fill in progressively without a commit per file. Gives the bytes read.
 *
 * `together`: a session read from its start is analysed from the same read (an index job: one read
 * and one parse of each line for both), when its agent's reader can share its records; its analysis
 * lands with its summary, and the analysis stage finds nothing left to do for it.
 */
export async function summaryStage(ctx: RefreshContext, work: SummaryWork[], report: RefreshReport, progress: ProgressFn, bytesTotal: number, signal?: AbortSignal, together = false): Promise<number> {
  const { store } = ctx;
  let done = 0;
  let bytesDone = 0;
  const todo = work.sort((a, b) => b.planned.fp.size - a.planned.fp.size);
  const batch: { w: SummaryWork; fromOffset: number; result: SummarizeResult; analysis?: AnalyzeResult }[] = [];
  // Sessions analysed with their summary in this refresh: a new subagent file's summary does not make them stale.
  const analysed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (batch.length === 0) return;
    const items = batch.splice(0);
    const applied = store.write(() =>
      items.map((i) => {
        const keepParent = i.w.planned.action === 'new' && i.w.row.parent_path !== null && analysed.has(i.w.row.parent_path);
        const now = applySummary(ctx, i.w.row, i.fromOffset, i.result, keepParent);
        if (!now || !i.analysis || store.st.updateAnalysis.run(analysisColumns(now.id, now.parsed_offset, i.analysis)).changes === 0) return { now, withAnalysis: null };
        analysed.add(now.path);
        return { now, withAnalysis: store.st.fileById.get(now.id) ?? null };
      }),
    );
    items.forEach(({ w, result }, k) => {
      done++;
      const now = applied[k]?.now ?? null;
      const withAnalysis = applied[k]?.withAnalysis ?? null;
      report.opened.push(w.row.path);
      if (result.ok) {
        report.bytesRead += result.bytesRead;
        bytesDone += result.bytesRead;
      }
      // Another writer stored this pass (or a newer one) first: nothing of ours to add.
      if (!now) return void report.unchanged++;
      const action = w.planned.action;
      const reason: ChangeReason = action === 'new' ? 'summarised' : result.ok && !result.fromStart ? 'appended' : 'rewritten';
      if (!result.ok) report.unreadable++;
      else if (action === 'new') report.added++;
      else if (reason === 'appended') report.appended++;
      else report.rewritten++;
      // A new file's row was added by the list stage: its summary is an update of that row.
      ctx.emitChange('updated', result.ok ? reason : 'unreadable', now, now);
      if (withAnalysis) {
        report.analysed++;
        ctx.emitChange('updated', 'analysed', withAnalysis, withAnalysis);
      }
    });
    progress('summary', done, todo.length, bytesDone, bytesTotal);
  };
  progress('summary', 0, todo.length, 0, bytesTotal);
  await Promise.all(
    todo.map(async (w) => {
      const row = w.row;
      // Rows are loaded without their checkpoint; only a file to resume needs it.
      const saved = w.planned.action === 'appended' ? (row.state ?? store.st.stateOf.get(row.id)?.state ?? null) : null;
      const fromOffset = saved !== null ? row.parsed_offset : 0;
      if (together && saved === null && row.kind === 'session' && sharesRead(ctx, row.agent)) {
        const both = await ctx.pool.run({ type: 'index', agent: row.agent, path: row.path, mappings: ctx.mappings() }, signal);
        if (both === SKIPPED) return;
        if (isThreadStopped(both)) return void report.notices.push(`${row.path}: ${both.message}`);
        // A job that failed outside its own catch (the pool's answer) is a failed summary.
        batch.push('summary' in both ? { w, fromOffset, result: both.summary, analysis: both.analysis } : { w, fromOffset, result: both });
        if (batch.length >= BATCH_ROWS) flush();
        else timer ??= setTimeout(flush, BATCH_WAIT_MS);
        return;
      }
      const result = await ctx.pool.run(
        {
          type: 'summarize',
          agent: row.agent,
          path: row.path,
          subagentFile: row.kind === 'subagent',
          fromOffset,
          fromLine: saved !== null ? row.parsed_lines : 0,
          state: saved !== null ? (JSON.parse(saved) as SummaryState) : null,
        },
        signal,
      );
      // A file the cancelled refresh never read stays as it was: the next refresh reads it.
      if (result === SKIPPED) return;
      // So does one whose thread stopped under it; the refresh says so.
      if (isThreadStopped(result)) return void report.notices.push(`${row.path}: ${result.message}`);
      batch.push({ w, fromOffset, result });
      if (batch.length >= BATCH_ROWS) flush();
      else timer ??= setTimeout(flush, BATCH_WAIT_MS);
    }),
  );
  flush();
  return bytesDone;
}

/**
 * Stores one summary pass (inside the batch's transaction): the checkpoint (the pass's messages
 * folded into its totals where it ran), their hourly usage, and the search text. A pass that resumed
 * from a checkpoint applies only on top of that same checkpoint; null when the row is gone or another
 * writer moved it on.
 */
function applySummary(ctx: RefreshContext, row: FileRow, fromOffset: number, result: SummarizeResult, keepParent: boolean): FileRow | null {
  const st = ctx.store.st;
  const now = st.fileByPath.get(row.path);
  if (!now) return null;
  if (!result.ok) {
    const failed = unreadableRow(now, result.code ?? result.message);
    st.updateFile.run(failed);
    return failed;
  }
  if (!result.fromStart && (now.level !== Stage.summarised || now.parsed_offset !== fromOffset)) return null;
  const s = result.state;
  let seq = now.search_seq;
  if (result.fromStart) {
    if (now.level >= Stage.summarised || now.search_seq > 0) clearContent(st, now.id);
    else st.deleteUsageHours.run(now.id);
    seq = 0;
  }
  // The pass's messages came folded into its checkpoint, with their hourly buckets (jobs.ts: settled).
  for (const d of result.hours) {
    st.addUsageHour.run({ file_id: now.id, hour: d.hour, model: d.model, messages: d.messages, input: d.input, output: d.output, cache_creation: d.cacheCreation, cache_read: d.cacheRead, cost: d.cost, unpriced: d.unpriced });
  }
  if (result.searchText.length > 0 && seq < SEARCH_ROWS_PER_FILE - 1) {
    st.insertSearch.run(now.id * SEARCH_ROWS_PER_FILE + seq, indexableText(result.searchText));
    seq++;
  }
  const next = summarisedRow(now, s, result, seq);
  st.updateFile.run(next);
  // The parent's window holds this subagent's: its analysis is stale, unless it read this file as it is
  // now (a parent analysed in this refresh, which found this file at discovery, before it read it).
  if (next.kind === 'subagent' && next.parent_path && !keepParent) st.invalidateAnalysis.run(next.parent_path);
  return next;
}

/** Whether an agent's sessions can be summarised and analysed from one read (IndexJob). */
function sharesRead(ctx: RefreshContext, agent: string): boolean {
  const { format, locator } = ctx.agents.byId(agent);
  return locator.sharesRecords === true && format.source.appendOnly;
}
