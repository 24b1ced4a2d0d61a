import type { SegmentClass } from './classes';
import type { SourceType } from './session';
import type { SegmentKind } from './snapshot';
import type { Problem } from './problem';

/**
 * One compaction as an adapter finds it in a transcript: the point where the client replaced the
 * conversation with a model-written summary. The adapter records where things are (lines, uuids);
 * what the window held before it is rebuilt on demand (see docs/compactions.md), never kept.
 */
export interface CompactionEvent {
  /** The record that marks the compaction (a boundary, or the summary itself for old clients). */
  uuid: string;
  line: number;
  timestamp?: string;
  isSidechain: boolean;
  /** `auto` (near the window's limit), `manual` (asked for), or `legacy` (an old client's summary without a boundary). */
  trigger: string;
  /** The last record of the conversation the compaction replaced: the leaf of the window before it. */
  leafBefore: string | null;
  /** The pre-compaction size the client wrote with the compaction, when it wrote one. */
  preTokensMetadata: number | null;
  /** The size the client reported for what replaced it (summary and kept messages), when it wrote one. */
  postTokensMetadata: number | null;
  /** Messages the client kept verbatim across the compaction. */
  preserved: string[];
  /** The record holding the summary the model wrote. */
  summary: { uuid: string; line: number; offset: number; length: number; bytes: number } | null;
  /** What the person asked the summary to keep (`/compact <instructions>`), when they did. */
  instructions?: string;
  /** Files and context the client attached again right after the compaction. */
  reattached: ReattachedItem[];
  /** The first real model response after the compaction: what the first request after it carried. */
  firstResponse: { uuid: string; line: number; parentUuid: string | null } | null;
}

export interface ReattachedItem {
  /** `file`: a file the client read again for the model; `context`: a listing or reminder sent again. */
  kind: 'file' | 'context';
  label: string;
  /** Absolute path, for files. */
  path?: string;
  uuid: string;
  line: number;
  bytes: number;
  tokens: number;
}

/** A distinctive string of a segment and whether the summary carries it. */
export interface CompactionKey {
  kind: 'path' | 'command' | 'url' | 'error' | 'identifier' | 'prompt' | 'line';
  text: string;
  /** The key names the segment itself (its file, command, URL, error or prompt), not just something in it. */
  primary: boolean;
  /** `verbatim`: in the summary as it is (a path also as relative to the working directory); `basename`: only a path's last part. */
  found: 'verbatim' | 'basename' | 'no';
}

/** One segment of the window before a compaction, judged against the summary. */
export interface CompactionItem {
  segmentId: string;
  uuid: string;
  line: number;
  kind: SegmentKind;
  sourceType: SourceType;
  label: string;
  tokens: number;
  class: SegmentClass;
  /** Proven dead before the compaction (a stale read, a duplicate…): losing it lost nothing. */
  dead: boolean;
  isError: boolean;
  /**
   * How it crossed the compaction: `preserved` (kept verbatim by the client), `reattached` (its file was
   * attached again), `summary` (the summary quotes a key naming it), `partial` (the summary has only some
   * of its strings, or a path's base name), `none` (nothing of it).
   */
  carried: 'preserved' | 'reattached' | 'summary' | 'partial' | 'none';
  keys: CompactionKey[];
  preview: string;
  /** Where its text is: the record's byte offset and length in the transcript, and the block. */
  record: { offset: number; length: number; blockIndex: number };
  /**
   * Its place in the window before, in reading order (0 first). The line alone does not say it: a
   * Gemini CLI history rewrite puts a whole conversation on one line.
   */
  position: number;
  /** A tool call's or result's id and tool, so that a call can be read with its result. */
  toolUseId?: string;
  toolName?: string;
}

/** A compaction's x-ray: the window before it, what the summary kept and what it dropped. */
export interface CompactionXray {
  /** 1 for the first compaction of the thread's live chain. */
  index: number;
  trigger: string;
  /** When the compaction happened (the boundary's timestamp). */
  at: string | null;
  line: number;
  /** The provider-reported size of the last request before the compaction (input + cache writes + reads). */
  preTokens: number | null;
  /** The size the client wrote with the compaction. */
  preTokensMetadata: number | null;
  /** Local estimate of the summary's tokens, as the model receives it. */
  summaryTokens: number;
  kept: CompactionItem[];
  /** Largest first. */
  dropped: CompactionItem[];
  reattached: ReattachedItem[];
}

/** A segment of the window right after a compaction, for the "after" treemap. */
export interface AfterSegment {
  segmentId: string;
  uuid: string;
  line: number;
  kind: SegmentKind;
  sourceType: SourceType;
  label: string;
  tokens: number;
  class: SegmentClass;
}

export interface CompactionFigures {
  /** Estimated tokens of the segments of the window before (calibrated against the reported size). */
  windowTokens: number;
  /** Carried across: preserved, re-attached, or named by the summary. */
  keptTokens: number;
  /** Of what was not carried: the tokens the summary names only in part (included in droppedTokens). */
  partialTokens: number;
  droppedTokens: number;
  /** Of the dropped tokens, those proven dead before the compaction. */
  droppedDeadTokens: number;
}

/** Everything the window shows about one compaction: the entry and what the views draw. */
export interface CompactionReport {
  xray: CompactionXray;
  uuid: string;
  isSidechain: boolean;
  postTokensMetadata: number | null;
  /** The provider-reported size of the first request after the compaction. */
  postTokens: number | null;
  summary: { uuid: string; line: number; text: string | null } | null;
  instructions: string | null;
  after: AfterSegment[];
  figures: CompactionFigures;
  /** The reported size against the client's figure: (reported − metadata) / metadata; null without both. */
  preTokensDelta: number | null;
  /**
   * Set when the record the compaction names as the end of the conversation it replaced is not in the
   * file: the window before was rebuilt from this record instead (the leaf the client itself would pick
   * for the file up to the compaction), and why.
   */
  leafChosen: { uuid: string; line: number; reason: string } | null;
}

/** A compaction of the thread that the conversation which resumes does not go through. */
export interface UnreachedCompaction {
  uuid: string;
  line: number;
  at: string | null;
  trigger: string;
  preTokensMetadata: number | null;
  /** Why the live conversation does not reach it, for people. */
  reason: string;
}

/** The compactions of one thread (a session, or a subagent's own file), oldest first. */
export interface CompactionHistory {
  path: string;
  /** The working directory the thread recorded, to show paths relative to it. */
  cwd: string | null;
  /** The subagent's id for a subagent file; null for the session itself. */
  agentId: string | null;
  /** Compactions on the live chain: the ones the conversation that resumes went through. */
  compactions: CompactionReport[];
  /** Compaction records of this thread in the whole file: `compactions` and `unreached` together, the one count every view shows. */
  boundaries: number;
  /** Those the live conversation does not go through, in file order, each with the reason. */
  unreached: UnreachedCompaction[];
  problems: Problem[];
}

/** Where a string was before the compactions: a segment of a compacted window that held it. */
export interface CompactionHit {
  /** The thread: null for the session, a subagent's id for its own file. */
  agentId: string | null;
  /** The first compaction whose window held it. */
  index: number;
  /** What became of it at each compaction whose window held it (a message kept verbatim meets the next one too). */
  fates: { index: number; carried: CompactionItem['carried'] }[];
  segmentId: string;
  uuid: string;
  line: number;
  kind: SegmentKind;
  label: string;
  dead: boolean;
  /** The text around the first match, on one line. */
  snippet: string;
}

/** "Where did this go?": every compacted segment that held a string, and which summaries still have it. */
export interface CompactionSearch {
  query: string;
  hits: CompactionHit[];
  /** Each compaction's summary, and whether it holds the string. */
  summaries: { agentId: string | null; index: number; found: boolean }[];
  /** More segments matched than are listed. */
  truncated: boolean;
}
