/** The values that cross the boundary between the renderer and the engine host (no I/O, runs anywhere). */
import type { ClassifiedSnapshot, ContextLimits, DeadClass, ExclusionReason, ForkEconomics, Problem, Segment, SegmentClass, SegmentKind, Usage, WindowFigures } from '@glassbox/core';

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
  /** A fork written by Glassbox (its manifest is in the archive). */
  fork: boolean;
  /** For a fork: the session it was made from (for a restored original: the fork it undid). */
  forkOf: SessionLink | null;
  /** The forks made from this session, oldest first. */
  forks: SessionLink[];
  subagents: number;
  /** Fatal or error problems found while summarising; the row still shows. */
  problem: string | null;
  /** Something wrong that does not stop it from opening (invalid or torn lines): said on the row. */
  warning?: string | null;
  /** USD at list prices for the session with its subagents; null while unknown or when a model has no price. */
  costUsd?: number | null;
  /** The model of the last response. */
  lastModel?: string | null;
  /** Why the row matched the search ("title", "folder", "text in the session"); absent without a query. */
  matched?: string;
  /** When the agent's own client deletes the session; null for clients that delete nothing. */
  retention: RetentionView | null;
  /** The session's copy in Glassbox's archive; null when it was never kept. */
  kept: KeptView | null;
}

/** The agent client's clean-up of this session: "deleted by Claude Code in 3 days". */
export interface RetentionView {
  /** The client's name. */
  client: string;
  /** ISO time the client deletes the file (its modification time + the clean-up period); null: never. */
  expiresAt: string | null;
  /** What decided it ("cleanupPeriodDays 10 in ~/.claude/settings.json"). */
  decidedBy: string;
}

/** A session kept in Glassbox's archive. */
export interface KeptView {
  /** ISO time the newest version was kept, and how many versions there are. */
  keptAt: string;
  versions: number;
  /** The newest version holds the file as it is now. */
  current: boolean;
  originalPath: string;
  /** The original is gone and this row reads the archive's copy: when Glassbox saw it gone, and whether the client's clean-up had come due. */
  gone: { noticedAt: string; byClient: boolean } | null;
}

/** A link from a session to another: a fork to its original, an original to its forks. */
export interface SessionLink {
  sessionId: string;
  path: string;
  /** The other session's title, when it is in the list. */
  title: string | null;
  /** ISO time the fork was written. */
  createdAt: string;
  kind: 'clean' | 'undo';
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
  /** Sessions listed before the search narrowed them (so "no match" is not read as "no sessions"). */
  total?: number;
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

/** What a written fork is, from its manifest in the archive. */
export interface ForkLineageView {
  /** For a fork: the session it was made from. */
  forkOf: SessionLink | null;
  /** The forks of this session. */
  forks: SessionLink[];
  /**
   * For a fork not resumed since it was written: its last reported usage is the original's, so the
   * window it will send is estimated as that figure minus what the fork removed (net of tombstones).
   */
  willSend: { estimatedTokens: number; originalReportedTokens: number } | null;
}

/** What the window view needs: the engine's snapshot plus how it was opened. */
export interface SnapshotView {
  snapshot: ClassifiedSnapshot;
  /** The client's deletion date and the kept copy, as the session's row in the list has them (null: not listed). */
  keeping: { retention: RetentionView | null; kept: KeptView | null } | null;
  /** The figures every view shows (list, header, wizard, inspect), from one definition. */
  figures: WindowFigures;
  lineage: ForkLineageView;
  /** The file is not under a projects root (dropped or opened by path). */
  external: boolean;
  /** Where the working directory was looked up ("as recorded", or a mapped folder). */
  repoNote: string;
  bytes: number;
  /** Byte size of the file when analysed, so a later append can be told apart. */
  analysedAt: string;
  /** The /context view: the model's window, auto-compaction, and what the set-up holds (absent from older hosts). */
  context?: ContextView;
  /** The session's cost at list prices with its subagents (absent from older hosts). */
  cost?: { usd: number | null; priceAsOf: string; unknownModels: string[] };
  /** What each charted response added to the window (same order as `snapshot.turns`). */
  turnAdditions?: TurnAdditionView[];
}

/** What `/context` shows: the window, how far auto-compaction is, and the parts of the set-up. */
export interface ContextView {
  /** From the agent's adapter; null when its model is unknown. */
  limits: ContextLimits | null;
  /** The model the limits are for (the last response's). */
  model: string | null;
  /** Set-up the transcript shows (memory files, tool and skill listings), by part. */
  setup: { label: string; tokens: number; segments: number }[];
  /** What the reported total holds beyond the transcript, in the agent's words. */
  remainderNote: string | null;
}

export interface TurnAdditionView {
  turn: number;
  tokens: number;
  segments: number;
  largest: { segmentId: string; label: string; tokens: number; class: SegmentClass }[];
}

export interface SessionPathArgs {
  path: string;
}

export interface CostLineView {
  usage: Usage;
  responses: number;
  /** USD; null when a response's model has no price. */
  cost: number | null;
}

/** `session:cost`: what the session cost, per model and per turn, at the agent's dated list prices. */
export interface CostView {
  priceTable: { asOf: string; source: string };
  total: CostLineView;
  byModel: (CostLineView & { model: string; priceLabel: string | null })[];
  /** Main-thread cost per user turn (turn 0: before the first prompt). */
  turns: (CostLineView & { turn: number; prompt: string; line: number })[];
  subagents: CostLineView;
  unknownModels: string[];
}

/** One item of the conversation view: a resident segment, read in order. */
export interface ConversationItem {
  segmentId: string;
  kind: SegmentKind;
  class: SegmentClass;
  label: string;
  toolName?: string;
  line: number;
  turn: number;
  tokens: number;
  /** The text as the model reads it, cut to `TEXT_CAP` characters (the inspector has all of it). */
  text: string;
  /** Characters left out of `text`. */
  cut: number;
}

/** `session:conversation`: the resident window read in order. */
export interface ConversationView {
  items: ConversationItem[];
  /** A compaction summary starts the window (everything before it is gone). */
  compacted: boolean;
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

/** Dead segments the plan keeps, grouped by reason. */
export interface ForkExclusion {
  reason: ExclusionReason;
  segments: number;
  tokens: number;
  /** The first segment's message (for refused-by-fork: the fork layer's reason). */
  message: string;
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
  /** Every dead segment not removed, grouped by reason. */
  excluded: ForkExclusion[];
  /** What forking now costs under the prompt cache, and when it pays back. */
  economics: ForkEconomics;
}

export interface ForkWritten {
  sessionId: string;
  path: string;
  /** The command that resumes the fork, ready to paste; null when no folder to run it from exists here. */
  resumeCommand: string | null;
  /** Why the command looks as it does, or why there is none. */
  resumeNote: string | null;
  checks: ForkCheck[];
  netReclaimed: number;
}

/** `fork:verify`, `fork:undo`, `fork:payload` name a fork by the path of its file. */
export interface ForkRefArgs {
  path: string;
}

export interface ForkVerified {
  /** Every check passes and the fork is byte-identical to what was written. */
  ok: boolean;
  unchanged: boolean;
  appendedLines: number;
  originalOnDisk: 'identical' | 'changed' | 'missing';
  originalPath: string;
  checks: ForkCheck[];
}

export interface ForkPayloadArgs {
  path: string;
  segmentId: string;
}

/** A payload a fork removed, back from the archive (hash-checked). */
export interface ForkPayload {
  segmentId: string;
  sha256: string;
  tombstone: string | null;
  text: string;
  bytes: number;
  /** Cut for display; `bytes` says how much there is. */
  truncated: boolean;
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

/** What a long job is doing: opening a big session, indexing, writing a fork. */
export type JobKind = 'open' | 'index' | 'compactions' | 'fork-preview' | 'fork-write' | 'fork-verify' | 'fork-undo';

/**
 * A long job's state, pushed as it runs (`job:progress`) and once more when it ends. The window shows
 * running jobs with a Cancel button (`job:cancel`).
 */
export interface JobProgress {
  /** Unique in this run of the host. */
  id: string;
  kind: JobKind;
  /** For people: "Opening 3c1f….jsonl", "Writing the fork". */
  label: string;
  /** The step it is on ("reading the session", "writing the fork"), when known. */
  stage?: string;
  /** Of `total`, in `unit`; total 0 while unknown. */
  done: number;
  total: number;
  unit: 'bytes' | 'files';
  state: 'running' | 'done' | 'cancelled' | 'failed';
  /** The session it is about, when it is about one. */
  path?: string;
  /** Whether `job:cancel` stops it (a job past its point of no return is not). */
  cancellable: boolean;
}

export interface JobCancelArgs {
  id: string;
}

export interface JobCancelled {
  /** False when the job had already ended (or was not found). */
  cancelled: boolean;
}

/** `session:keep`: sessions named by the paths the list shows. */
export interface KeepArgs {
  paths: string[];
}

export interface KeepOutcome {
  path: string;
  /** 'kept': a new version was stored; 'unchanged': the archive already held it; 'failed': see message. */
  status: 'kept' | 'unchanged' | 'failed';
  message: string | null;
  /** Bytes of the session's files, and what this keep wrote to the archive for them. */
  bytes: number;
  writtenBytes: number;
}

export interface KeepResultView {
  outcomes: KeepOutcome[];
}

/** `session:restore`: a kept session by the path its row shows (the archive's copy, or the original). */
export interface RestoreArgs {
  path: string;
}

export interface RestoredView {
  sessionId: string;
  path: string;
  /** Files written, the transcript last. */
  files: number;
  resumeCommand: string | null;
  resumeNote: string | null;
}

/** The clean-up rules in force, the auto-keep setting and what the archive holds. */
export interface RetentionInfo {
  folders: RetentionFolder[];
  /** "Keep every session automatically": after it has been idle for a while, and again before its deletion date. */
  autoKeep: boolean;
  archive: { root: string; sessions: number; versions: number; storedBytes: number };
}

export interface RetentionFolder {
  /** A configuration folder the client cleans, and the client's name. */
  folder: string;
  client: string;
  /** Days of inactivity before deletion; null when the clean-up is off there. */
  days: number | null;
  decidedBy: string;
  /** Said once: a very short period, or a setting some client versions misread. */
  warning: string | null;
  /** Settings files that could not be used as written (the default was assumed, or the clean-up is off). */
  problems: string[];
}

export interface AutoKeepArgs {
  enabled: boolean;
}
