import { isResumableState, type AgentFormat, type MessageUsage, type SummaryPass, type SummaryState } from '@glassbox/core';
import { readCompleteLines, type CompleteLinesResult, type Fingerprint } from '../shared/scan';
import { messagePricer } from './cost';
import { continuePass, keepAfterWholeRead } from './kept-summaries';
import { foldMessages } from './totals';
import { usageHourDeltas, type UsageHourDelta } from './usage-hours';

/** One summary pass over a file, from a checkpoint: runs in a worker thread or inline. */
export interface SummarizeJob {
  type: 'summarize';
  /** The agent whose transcript it is (its adapter summarises it). */
  agent: string;
  path: string;
  subagentFile: boolean;
  fromOffset: number;
  fromLine: number;
  /** The checkpoint to resume from; null reads the file from the start. */
  state: SummaryState | null;
}

export type SummarizeResult =
  | {
      ok: true;
      /** The file was read from its start (a new file, or the checkpoint no longer matched its bytes). */
      fromStart: boolean;
      /** The checkpoint after the pass: its messages folded into the totals (totals.ts). */
      state: SummaryState;
      /** What the pass's messages add to the file's hourly buckets (usage-hours.ts). */
      hours: UsageHourDelta[];
      searchText: string;
      endOffset: number;
      endLine: number;
      bytesRead: number;
      fingerprint: Fingerprint;
    }
  | { ok: false; code: string | null; message: string };

export function runSummarize(job: SummarizeJob, format: AgentFormat): SummarizeResult {
  try {
    // A checkpoint of another agent or an older summary version is not resumed: the file is read again;
    // so is any file of an agent whose sessions do not only grow by appends (a rewritten document).
    const resume = format.source.appendOnly && job.state !== null && job.fromOffset > 0 && isResumableState(job.state, format.id);
    if (!format.source.appendOnly) {
      // Read whole as far as the result says, but from a summarizer kept in memory when the file only grew.
      const on = continuePass(format, job.path, job.subagentFile);
      if (on) return { ...resultOf(format, on.pass, on.read), fromStart: true };
    }
    let out = pass(format, job.path, resume ? job.fromOffset : 0, resume ? job.fromLine : 0, resume ? job.state : null, job.subagentFile);
    if (out.rewritten) out = pass(format, job.path, 0, 0, null, job.subagentFile);
    return { ...out.result, fromStart: !resume || out.rewritten };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return { ok: false, code: e.code ?? null, message: e.message };
  }
}

function pass(format: AgentFormat, path: string, fromOffset: number, fromLine: number, state: SummaryState | null, subagentFile: boolean) {
  const acc = format.createSummarizer(state ? structuredClone(state) : null, subagentFile);
  const r = readCompleteLines(path, fromOffset, fromLine, (text, line) => acc.line(text, line), state?.anchor ?? null, !format.source.appendOnly);
  const kept = !format.source.appendOnly && fromOffset === 0 ? keepAfterWholeRead(format, path, subagentFile, acc, r) : null;
  return { rewritten: r.rewritten, result: resultOf(format, kept ?? acc.finish(), r) };
}

function resultOf(format: AgentFormat, out: SummaryPass, r: CompleteLinesResult) {
  out.state.anchor = r.anchor;
  return {
    ok: true as const,
    ...settled(format, out),
    endOffset: r.endOffset,
    endLine: r.endLine,
    bytesRead: r.bytesRead,
    fingerprint: r.fingerprint,
  };
}

const pricers = new Map<AgentFormat, (m: MessageUsage) => number | null>();

/**
 * A pass as the index stores it: the checkpoint with the pass's messages folded into its totals, and
 * their hourly buckets (taken before the fold, which moves the checkpoint's recent messages on). Done
 * where the pass ran, so a pass's answer does not carry one object per API message across threads.
 * The state is copied where the fold writes (a summarizer kept in memory goes on from its own).
 */
export function settled(format: AgentFormat, out: SummaryPass): { state: SummaryState; hours: UsageHourDelta[]; searchText: string } {
  let price = pricers.get(format);
  if (!price) pricers.set(format, (price = messagePricer(format.prices)));
  const state = { ...out.state, totals: { ...out.state.totals } };
  const hours = usageHourDeltas(state.recent, out.messages, price);
  foldMessages(state, out.messages, price);
  return { state, hours, searchText: out.searchText };
}
