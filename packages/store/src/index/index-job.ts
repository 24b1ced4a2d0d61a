import { statSync } from 'node:fs';
import type { AgentRegistry } from '@glassbox/core';
import { folderFor } from '@glassbox/analysis';
import { anchorAt, fingerprintOf, sameFingerprint } from '../shared/scan';
import { analysisOf, runAnalyze, type AnalyzeResult } from './analyze-job';
import { runSummarize, settled, type SummarizeResult } from './jobs';

/**
 * A session file read from its start for the index: its summary and its analysis from ONE read and
 * one JSON.parse of each line. The agent's reader hands each line and its record on
 * (`LoadOptions.onRecord`) to the summarizer as it parses it for the window. A cold index reads every
 * file once instead of twice.
 */
export interface IndexJob {
  type: 'index';
  agent: string;
  path: string;
  /** The index's folder mappings (a moved checkout): the analysis checks the disk where the summary's cwd maps to. */
  mappings: Record<string, string>;
}

export interface IndexResult {
  summary: SummarizeResult;
  analysis: AnalyzeResult;
}

interface HeldLine {
  text: string;
  line: number;
  end: number;
  record: unknown;
}

export function runIndex(job: IndexJob, agents: AgentRegistry): IndexResult {
  const { format, locator } = agents.byId(job.agent);
  // The folder the analysis stage would check: the summary's cwd, mapped (null: the cwd itself).
  let cwd: string | null = null;
  const summaryRepoRoot = (): string | null => {
    const mapped = folderFor(cwd, job.mappings);
    return mapped === cwd ? null : mapped;
  };
  const separately = (): IndexResult => {
    const summary = runSummarize({ type: 'summarize', agent: job.agent, path: job.path, subagentFile: false, fromOffset: 0, fromLine: 0, state: null }, format);
    cwd = summary.ok ? summary.state.cwd : null;
    return { summary, analysis: runAnalyze({ type: 'analyze', agent: job.agent, path: job.path, repoRoot: summaryRepoRoot() }, locator) };
  };
  // An agent whose reader cannot hand its records on, or whose files are rewritten whole, is read twice.
  if (!locator.sharesRecords || !format.source.appendOnly) return separately();
  try {
    const before = fingerprintOf(statSync(job.path));
    const acc = format.createSummarizer(null, false);
    // As the summary's own pass: only complete lines (a last line without its newline may still be
    // being written; the next pass resumes at its start). A line goes on once the next is seen.
    let held: HeldLine | null = null;
    let endOffset = 0;
    let endLine = 0;
    const give = (l: HeldLine): void => {
      acc.line(l.text, l.line, l.record);
      endOffset = l.end;
      endLine = l.line;
    };
    const loaded = locator.load(job.path, {
      onRecord: (text, line, offset, byteLength, record) => {
        if (held) give(held);
        held = { text, line, end: offset + byteLength + 1, record };
      },
      figuresOnly: true,
    });
    const last = held as HeldLine | null;
    if (last && last.end <= before.size) give(last);
    const after = fingerprintOf(statSync(job.path));
    // Changed under the read: the two passes on their own, each seeing the file as it then is.
    if (!sameFingerprint(before, after)) return separately();
    const out = acc.finish();
    out.state.anchor = anchorAt(job.path, endOffset);
    cwd = out.state.cwd;
    return {
      summary: { ok: true, ...settled(format, out), endOffset, endLine, bytesRead: before.size, fingerprint: before, fromStart: true },
      analysis: analysisOf(loaded, summaryRepoRoot()),
    };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const failed = { ok: false as const, code: e.code ?? null, message: e.message };
    return { summary: failed, analysis: failed };
  }
}
