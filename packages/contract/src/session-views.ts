/** The views of one open session: its window snapshot, /context, cost, conversation and one segment's detail. */
import type { ClassifiedSnapshot, ContextLimits, Segment, SegmentClass, SegmentKind, Usage, WindowFigures } from '@glassbox/core';
import type { RetentionView, KeptView } from './keeping';
import type { SessionLink } from './session-list';

export interface SnapshotArgs {
  path: string;
  /** Include the inferred `spent` class. */
  withInferred?: boolean;
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
  cost?: { usd: number | null; priceAsOf: string; unknownModels: string[]; client?: { usd: number; differs: boolean } };
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
  /** The agent's client's own figure beside Glassbox's for the same responses, when the transcript records one. */
  client?: ClientCostView | null;
}

export interface ClientCostView {
  clientUsd: number;
  /** Glassbox's price of the same responses; null when a model has no price. */
  glassboxUsd: number | null;
  /** More than 1 % apart, or not comparable. */
  differs: boolean;
  /** The client priced a model it has no price for. */
  clientGuessed: boolean;
  /** The record the figure comes from, and the first line of the responses it covers. */
  line: number;
  fromLine: number;
  responses: number;
  byModel: { model: string; clientUsd: number; glassboxUsd: number | null; differs: boolean; clientTokens: number; glassboxTokens: number }[];
}

/** One item of the conversation view, read in order: a prompt, a reply, a tool call (with its result), an attachment… */
export interface ConversationItem {
  segmentId: string;
  kind: SegmentKind;
  class: SegmentClass;
  /** A fork would remove it (proven dead, or inferred when asked for); a tombstone is its own class. */
  dead: boolean;
  label: string;
  toolName?: string;
  line: number;
  /** The prompt it answers (items of the resident window only). */
  turn?: number;
  tokens: number;
  /** The text as the model reads it (an attachment: what it carries), cut to a cap. */
  text: string;
  /** Characters left out of `text`. */
  cut: number;
  /** 0 before the first compaction, n after the nth. */
  window: number;
  /** In the window the model reads now: the treemap and the inspector have it. */
  resident: boolean;
  /** An attachment, in words ("file src/a.ts, attached by the client"). */
  attachment?: string;
  /** A tool call's result, read with it. */
  result?: ConversationItem;
}

/** A compaction, shown in place: before the item at `before`. */
export interface ConversationCompaction {
  index: number;
  trigger: string;
  at: string | null;
  line: number;
  preTokens: number | null;
  postTokens: number | null;
  summaryTokens: number;
  before: number;
}

/** `session:conversation`: the whole session in order, before and after each compaction. */
export interface ConversationView {
  items: ConversationItem[];
  compactions: ConversationCompaction[];
  /** Compactions on branches the live conversation no longer reaches (not shown). */
  unreached: number;
  /** Compacted, but the windows before cannot be rebuilt for this agent: it starts at the last compaction's summary. */
  fromLastCompaction: boolean;
}

export const EXPORT_FORMAT_VIEWS = ['md', 'html'] as const;
export type ExportFormatView = (typeof EXPORT_FORMAT_VIEWS)[number];

export interface SessionExportArgs {
  path: string;
  format: ExportFormatView;
}

/** `session:export`: the session as Markdown or self-contained HTML, for the window to save. */
export interface SessionExport {
  fileName: string;
  mime: string;
  text: string;
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
  /** An elision: a fork's elided result (its middle in the archive), or a result a fork would elide, as cut. */
  elision: SegmentElision | null;
}

/** An elided result's parts: the head and tail kept verbatim and the marker line between them. */
export interface SegmentElision {
  head: string;
  marker: string;
  tail: string;
  /** The hash prefix the marker names, the middle's lines and its characters as the marker shows them. */
  sha256Prefix: string;
  middleLines: number;
  middleChars: string;
  /** A fork's elision: its middle is in the archive (`fork:payload` reads it back, hash-checked). False: a preview of what a fork would write. */
  inFork: boolean;
}
