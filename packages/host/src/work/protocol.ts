import type { Problem, WindowFigures } from '@glassbox/core';
import type { SnapshotHead } from '../lineage';
import type { CompactionFindResult, CompactionItemText, CompactionsView, ConversationView, CostView, ElisionPreview, ExportFormatView, SessionExport, ForkPayload, ForkPreview, ForkRemoved, ForkVerified, ForkWritten, Result, SegmentDetail, SnapshotView } from '@glassbox/contract';
import type { ElisionInput, ForkInput, ForkResult, ForkWriteAnswer } from '../fork-views';

/**
 * What the host asks of the threads that do its heavy work (see pool.ts), and what they answer: plain
 * data only, as it crosses a thread boundary. A session is named by a key (its path as the window
 * gave it, or an upload key); the thread that opened it keeps it, with its snapshots.
 */

/** How a session is analysed (each set of options gets its own cached snapshot). */
export interface AnalyzeOptions {
  repoRoot: string | null;
  withInferred: boolean;
  /** Nothing is looked up on disk (a dropped file whose paths came from elsewhere). */
  diskless: boolean;
  /** The only folders the disk is read in (SECURITY.md, token scope); null: anywhere. */
  readScope: readonly string[] | null;
  model?: string;
}

/** A session as opened: what the host shows about it without its window. */
export interface OpenSummary {
  size: number;
  mtimeMs: number;
  sessionId: string;
  title: string | null;
  firstPrompt: string | null;
  cwd: string | null;
  agent: string;
  problems: Problem[];
  /** Why it cannot be shown (empty, not a transcript), in words; null when it can. */
  fatal: string | null;
}

/**
 * A snapshot as the host sends it: serialised here (the thread that answers requests never rebuilds
 * it as objects), with its figures and what the fork lineage needs of it.
 */
interface SnapshotParts {
  /** The ClassifiedSnapshot shown (problems reduced to positions), as JSON in UTF-8. */
  json: Uint8Array;
  figures: WindowFigures;
  head: SnapshotHead;
  /** The /context view and the header's cost (small beside the snapshot). */
  context: NonNullable<SnapshotView['context']>;
  cost: NonNullable<SnapshotView['cost']>;
  /** What each response added (SnapshotView['turnAdditions']), as JSON in UTF-8. */
  turnAdditions: Uint8Array;
}

/** A file to open (its real path), or an upload the thread already holds (path null). */
export interface SessionRef {
  key: string;
  path: string | null;
}

export type WorkRequest =
  | { op: 'open'; ref: SessionRef }
  | { op: 'upload'; key: string; name: string; text: string }
  /** `hideRepoMissing`: a dropped file not mapped to a folder (its cwd was not looked up, so "missing" would be wrong). */
  | { op: 'snapshot'; ref: SessionRef; options: AnalyzeOptions; hideRepoMissing: boolean }
  | { op: 'detail'; ref: SessionRef; segmentId: string; options: AnalyzeOptions }
  | { op: 'cost'; ref: SessionRef }
  /** The conversation of the window last shown, else of the one these options give. */
  | { op: 'conversation'; ref: SessionRef; options: AnalyzeOptions }
  | { op: 'export'; ref: SessionRef; options: AnalyzeOptions; format: ExportFormatView }
  | { op: 'fork-preview'; input: ForkInput }
  | { op: 'fork-write'; input: ForkInput }
  | { op: 'elision-preview'; input: ElisionInput }
  | { op: 'fork-verify'; path: string }
  | { op: 'fork-write-original'; path: string; repoMap: Record<string, string> }
  | { op: 'fork-remove'; path: string }
  | { op: 'fork-payload'; path: string; segmentId: string }
  | { op: 'compactions'; ref: SessionRef; repoRoot: string | null; diskless: boolean; readScope: readonly string[] | null }
  | { op: 'compaction-item'; ref: SessionRef; repoRoot: string | null; diskless: boolean; readScope: readonly string[] | null; agentId: string | null; index: number; segmentId: string }
  | { op: 'compaction-find'; ref: SessionRef; repoRoot: string | null; diskless: boolean; readScope: readonly string[] | null; query: string }
  | { op: 'forget'; key: string };

/** What each request answers: `missing` when an upload is no longer held. */
interface WorkResults {
  open: OpenSummary;
  upload: OpenSummary;
  /** The window as the host sends it; null when the session cannot be shown (see `summary.fatal`). */
  snapshot: { summary: OpenSummary; view: SnapshotParts | null } | 'missing';
  detail: SegmentDetail | 'missing' | 'no-segment';
  cost: CostView | 'missing';
  conversation: ConversationView | 'missing';
  export: SessionExport | 'missing';
  'fork-preview': ForkPreview;
  'fork-write': ForkWriteAnswer;
  'elision-preview': ForkResult<ElisionPreview>;
  'fork-verify': ForkResult<ForkVerified>;
  'fork-write-original': ForkResult<ForkWritten>;
  'fork-remove': ForkResult<ForkRemoved>;
  'fork-payload': ForkResult<ForkPayload>;
  compactions: Result<CompactionsView> | 'missing';
  'compaction-item': Result<CompactionItemText> | 'missing';
  'compaction-find': Result<CompactionFindResult> | 'missing';
  forget: true;
}

export type ResultFor<R extends WorkRequest> = WorkResults[R['op']];

/** A job's link to its caller while it runs (progress, cancellation), the same in a thread and inline. */
export interface WorkContext {
  progress(stage: string, done: number, total: number): void;
  cancelled(): boolean;
}
