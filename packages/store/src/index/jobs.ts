import { isResumableState, type AgentFormat, type MessageUsage, type SummaryPass, type SummaryState } from '@glassbox/core';
import { readCompleteLines, type CompleteLinesResult, type Fingerprint } from '../shared/scan';
import { continuePass, keepAfterWholeRead } from './kept-summaries';

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
      state: SummaryState;
      messages: MessageUsage[];
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
      if (on) return { ...resultOf(on.pass, on.read), fromStart: true };
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
  return { rewritten: r.rewritten, result: resultOf(kept ?? acc.finish(), r) };
}

function resultOf(out: SummaryPass, r: CompleteLinesResult) {
  out.state.anchor = r.anchor;
  return {
    ok: true as const,
    ...out,
    endOffset: r.endOffset,
    endLine: r.endLine,
    bytesRead: r.bytesRead,
    fingerprint: r.fingerprint,
  };
}
