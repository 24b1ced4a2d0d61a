import type { AgentFormat, SummaryPass, TranscriptSummarizer } from '@glassbox/core';
import { statSync } from 'node:fs';
import { readCompleteLines, type CompleteLinesResult } from '../shared/scan';

/**
 * Summarizers kept in memory for files whose saved state cannot be resumed (`appendOnly: false`) but
 * whose summarizer can go on (`snapshot`: a Gemini CLI log, replayed in order). A followed chat is
 * summarised again after every append; without this each pass read the whole file (650 ms at 100 MB).
 * A kept summarizer is fed only the complete lines appended since, and only while the file is the one
 * it read: same device and inode, grown, the bytes just before its offset unchanged (the anchor — the
 * cheap check appended logs get too: an edit further back that also grows the file is not seen).
 * Anything else — and a last line without its newline, which a whole read would count — is read whole.
 * Per thread, a few files: a job another thread ran before is simply read whole here.
 */
interface Kept {
  format: string;
  subagentFile: boolean;
  acc: TranscriptSummarizer;
  read: CompleteLinesResult;
}

const KEEP = 4;
const kept = new Map<string, Kept>();

export interface ContinuedPass {
  pass: SummaryPass;
  read: CompleteLinesResult;
}

/** The whole file's pass from a kept summarizer fed what was appended; null when it must be read whole. */
export function continuePass(format: AgentFormat, path: string, subagentFile: boolean): ContinuedPass | null {
  const k = kept.get(path);
  kept.delete(path);
  if (!k || k.format !== format.id || k.subagentFile !== subagentFile || !k.acc.snapshot) return null;
  // Not grown (the same size with other bytes is an edit, not an append): read whole.
  if (sizeOf(path) <= k.read.fingerprint.size) return null;
  const r = readCompleteLines(path, k.read.endOffset, k.read.endLine, (text, line) => k.acc.line(text, line), k.read.anchor);
  const same = !r.rewritten && r.fingerprint.dev === k.read.fingerprint.dev && r.fingerprint.ino === k.read.fingerprint.ino;
  if (!same || r.endOffset !== r.fingerprint.size) return null;
  const pass = k.acc.snapshot();
  if (!pass) return null;
  keep(format, path, subagentFile, k.acc, r);
  return { pass, read: r };
}

/**
 * A summarizer that read `path` whole, ready to go on: kept when it can (its snapshot is not null),
 * after the read is known to end at a newline. Returns the snapshot's pass (equal to finish()'s).
 */
export function keepAfterWholeRead(format: AgentFormat, path: string, subagentFile: boolean, acc: TranscriptSummarizer, read: CompleteLinesResult): SummaryPass | null {
  if (!acc.snapshot || read.endOffset !== read.fingerprint.size || read.rewritten) return null;
  const pass = acc.snapshot();
  if (!pass) return null;
  keep(format, path, subagentFile, acc, read);
  return pass;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}

function keep(format: AgentFormat, path: string, subagentFile: boolean, acc: TranscriptSummarizer, read: CompleteLinesResult): void {
  kept.set(path, { format: format.id, subagentFile, acc, read });
  // Oldest first in a Map: drop beyond the few most recent files.
  for (const p of kept.keys()) {
    if (kept.size <= KEEP) break;
    kept.delete(p);
  }
}

/** For tests: forget every kept summarizer. */
export function forgetKeptSummaries(): void {
  kept.clear();
}
