import { dirname, join } from 'node:path';
import type { DiscoveredFile, SummaryState } from '@glassbox/core';
import type { SummarizeResult } from './jobs';
import type { Fingerprint } from '../shared/scan';
import { Stage } from './stage';
import type { FileKey, FileRow, NewFileRow } from './statements';

/** A file as the index knows it before reading: found under a root, or opened from anywhere. */
export type IndexedFile = Omit<DiscoveredFile, 'root'> & { root: string | null };

/**
 * The row for a file just listed from its first and last records (`state`), or recorded as unreadable
 * (`note` says why). Every figure that needs the whole file (and the analysis) starts empty.
 */
export function listedRow(file: IndexedFile, origin: 'discovered' | 'opened', fp: Fingerprint, state: SummaryState | null, note: string | null): NewFileRow {
  const sessionId = state?.sessionId ?? file.sessionId ?? '';
  let parentPath = file.parentPath;
  if (file.kind === 'subagent' && !parentPath && sessionId) parentPath = join(dirname(file.path), `${sessionId}.jsonl`);
  return {
    agent: file.agent,
    path: file.path,
    root: file.root,
    origin,
    kind: file.kind,
    parent_path: parentPath,
    agent_id: file.agentId ?? state?.agentId ?? null,
    session_id: sessionId || file.sessionId,
    project: file.project,
    cwd: state?.cwd ?? null,
    git_branch: state?.gitBranch ?? null,
    version: state?.version ?? null,
    title: state?.title ?? null,
    first_prompt: state?.firstPrompt ?? null,
    first_ts: state?.firstTs ?? null,
    last_ts: state?.lastTs ?? null,
    ...fpColumns(fp),
    level: state ? Stage.listed : Stage.unreadable,
    parsed_offset: 0,
    parsed_lines: 0,
    state: null,
    search_seq: 0,
    turns: 0,
    records: 0,
    context_tokens: state?.contextTokens ?? null,
    last_model: state?.lastModel ?? null,
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_tokens: 0,
    cache_read_tokens: 0,
    api_messages: 0,
    cost_usd: null,
    unpriced_messages: 0,
    problems: note ? 1 : 0,
    problem_note: note,
    ...NO_ANALYSIS,
    indexed_at: new Date().toISOString(),
  };
}

/** A row whose file could not be read in its summary pass. */
export function unreadableRow(now: FileRow, reason: string): FileRow {
  return { ...now, level: Stage.unreadable, problems: 1, problem_note: `cannot be read (${reason})`, indexed_at: new Date().toISOString() };
}

/**
 * The row after a summary pass: `s` is the checkpoint with the pass's messages already folded into
 * its totals; `searchSeq` the number of search rows the file now has. A pass from the start throws
 * away the last analysis (its figures describe bytes that are gone).
 */
export function summarisedRow(now: FileRow, s: SummaryState, pass: Extract<SummarizeResult, { ok: true }>, searchSeq: number): FileRow {
  const totals = s.totals;
  const next: FileRow = {
    ...now,
    ...fpColumns(pass.fingerprint),
    session_id: s.sessionId ?? now.session_id,
    agent_id: now.agent_id ?? s.agentId,
    cwd: s.cwd,
    git_branch: s.gitBranch,
    version: s.version,
    title: s.title,
    first_prompt: s.firstPrompt,
    first_ts: s.firstTs,
    last_ts: s.lastTs,
    level: Stage.summarised,
    parsed_offset: pass.endOffset,
    parsed_lines: pass.endLine,
    state: JSON.stringify(s),
    search_seq: searchSeq,
    turns: s.turns,
    records: s.records,
    context_tokens: s.contextTokens,
    last_model: s.lastModel,
    input_tokens: totals.input,
    output_tokens: totals.output,
    cache_creation_tokens: totals.cacheCreation,
    cache_read_tokens: totals.cacheRead,
    api_messages: totals.apiMessages,
    cost_usd: totals.apiMessages > 0 && totals.unpriced === totals.apiMessages ? null : totals.cost,
    unpriced_messages: totals.unpriced,
    problems: s.invalidLines,
    problem_note: s.invalidLines > 0 ? `${s.invalidLines} invalid line(s), first at line ${s.firstInvalidLine}` : null,
    indexed_at: new Date().toISOString(),
  };
  return pass.fromStart ? { ...next, ...NO_ANALYSIS } : next;
}

const NO_ANALYSIS = {
  analyzed_offset: null,
  estimated_tokens: null,
  reclaimable_tokens: null,
  reclaimable_json: null,
  window_tokens: null,
  analysis_repo: null,
  analysis_error: null,
} as const;

function fpColumns(fp: Fingerprint): Pick<FileRow, 'dev' | 'ino' | 'size' | 'mtime_ms'> {
  return { dev: fp.dev, ino: fp.ino, size: fp.size, mtime_ms: fp.mtimeMs };
}

/** A stored row as the file it describes (to look at it again without discovering the roots). */
export function rowAsFile(row: FileKey): IndexedFile {
  return {
    agent: row.agent,
    path: row.path,
    root: row.root,
    project: row.project,
    kind: row.kind,
    parentPath: row.parent_path,
    agentId: row.agent_id,
    sessionId: row.session_id,
  };
}
