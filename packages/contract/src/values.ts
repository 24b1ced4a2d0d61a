/** The values that cross the boundary between the renderer and the engine host (no I/O, runs anywhere). */
import type { ClassifiedSnapshot, DeadClass, Problem, Segment } from '@glassbox/core';

export type SessionSort = 'activity' | 'size' | 'context' | 'reclaimable';
export const SESSION_SORTS: readonly SessionSort[] = ['activity', 'size', 'context', 'reclaimable'];

/** One line of the session browser. Figures are from the index (or a scan) so the list opens at once. */
export interface SessionRow {
  id: string;
  path: string;
  /** The projects-folder name (the slug), and a readable project name from the working directory. */
  projectDir: string;
  project: string;
  cwd: string | null;
  title: string | null;
  /** ISO time of the last record, else of the file's mtime. */
  lastActivity: string | null;
  bytes: number;
  /** Provider-reported context of the last response. */
  contextTokens: number | null;
  estimatedTokens: number;
  reclaimableTokens: number;
  /** 0..1 of the context (reported when known, else estimated). */
  reclaimableShare: number;
  /** Written to in the last few minutes. */
  live: boolean;
  /** A fork written by Glassbox. */
  fork: boolean;
  subagents: number;
  /** Fatal or error problems found while summarising; the row still shows. */
  problem: string | null;
}

export interface IndexProgress {
  phase: 'idle' | 'scanning' | 'indexing' | 'done';
  done: number;
  total: number;
  /** What is being done now (a stage, or the file being read), for the status line. */
  current?: string;
}

export interface SessionsListArgs {
  query?: string;
  sort?: SessionSort;
}

export interface SessionsListResult {
  sessions: SessionRow[];
  /** Where the host looked, for the empty state. */
  roots: string[];
  progress: IndexProgress;
  /** Bundled sample sessions exist (offered when the machine has none). */
  samples: SampleSession[];
}

export interface SampleSession {
  name: string;
  description: string;
  path: string;
}

export interface SnapshotArgs {
  path: string;
  /** Include the inferred `spent` class. */
  withSpent?: boolean;
  /** The model of the next request (only its own reasoning is sent); default: the one the client would resume on. */
  model?: string;
}

/** What the window view needs: the engine's snapshot plus how it was opened. */
export interface SnapshotView {
  snapshot: ClassifiedSnapshot;
  /** The file is not under a projects root (dropped or opened by path). */
  external: boolean;
  /** Where the working directory was looked up ("as recorded", or a mapped folder). */
  repoNote: string;
  bytes: number;
  /** Byte size of the file when analysed, so a later append can be told apart. */
  analysedAt: string;
}

export interface SegmentDetailArgs {
  path: string;
  segmentId: string;
}

export interface SegmentDetail {
  segment: Segment;
  /** The payload as the model sees it: text, a tool result, a tool input rendered as JSON. */
  content: string;
  contentBytes: number;
  /** The content was cut for display (over the display cap); its size says how much there was. */
  truncated: boolean;
  /** The proof in one plain sentence; for live segments, why it stays. */
  explanation: string;
  /** A segment that proves this one dead (the later read, the kept copy), to jump to. */
  provedBy: { segmentId: string; line: number; label: string } | null;
}

export interface ForkArgs {
  path: string;
  classes: DeadClass[];
  /** User turns at the end that are never touched. */
  protectTail?: number;
}

export interface ForkCheck {
  id: string;
  label: string;
  ok: boolean;
  detail: string;
}

export interface ForkRemoval {
  segmentId: string;
  line: number;
  class: DeadClass;
  source: string;
  tokensFreed: number;
}

export interface ForkPreview {
  sessionId: string;
  classes: DeadClass[];
  tokensBefore: number;
  tokensAfter: number;
  reclaimed: number;
  tombstoneTokens: number;
  netReclaimed: number;
  actions: number;
  largest: ForkRemoval[];
  reasons: string[];
  /** Every gate the fork must pass; writing is refused unless all pass. */
  checks: ForkCheck[];
  canWrite: boolean;
}

export interface ForkWritten {
  sessionId: string;
  path: string;
  /** The command that resumes the fork, ready to paste. */
  resumeCommand: string;
  checks: ForkCheck[];
  netReclaimed: number;
}

export type FileOpenArgs =
  /** A path on this machine (Electron drop, "Open file…", a sample). */
  | { path: string }
  /** The bytes of a dropped file (browser mode, where a dropped file has no path). Nothing is written. */
  | { name: string; text: string };

export interface FileOpened {
  /** The key the other channels take as `path` (a real path, or `upload:<sha>` for dropped bytes). */
  path: string;
  title: string;
  sessionId: string;
  problems: Problem[];
}

export interface RepoMapArgs {
  /** The working directory as recorded in the transcript. */
  cwd: string;
  /** Where that folder is on this machine now; null removes the mapping. */
  folder: string | null;
}

export interface HostInfo {
  mode: 'electron' | 'browser';
  version: string;
  roots: string[];
  dataDir: string;
  repoMap: Record<string, string>;
}
