/** Forks: the preview before writing, the written fork, its verification and the payloads it removed. */
import type { DeadClass, ExclusionReason, ForkEconomics } from '@glassbox/core';

export interface ForkArgs {
  path: string;
  classes: DeadClass[];
  /** User turns at the end that are never touched. */
  protectTail?: number;
  /** Elision's thresholds (used only when `classes` has `elided`; default: the measured ones). */
  elide?: ElideArgs;
}

/** How elision cuts: results over `overTokens` keep at most `keepChars` characters and `keepLines` whole lines at each end. */
export interface ElideArgs {
  overTokens: number;
  keepChars: number;
  keepLines: number;
}

/** `fork:elision-preview`: what elision would do to a session at these thresholds. */
export interface ElisionPreviewArgs {
  path: string;
  elide?: ElideArgs;
  protectTail?: number;
}

/** One elision as the fork would write it, cut from the session's own text by the fork builder. */
export interface ElisionSample {
  segmentId: string;
  line: number;
  source: string;
  /** The result's tokens, and what its head, marker and tail keep of them. */
  tokens: number;
  keptTokens: number;
  head: string;
  /** The marker line (no newline) that names the archived middle. */
  marker: string;
  tail: string;
  /** The middle left out: its lines, its characters as the marker shows them ("48.1k") and the hash prefix the marker names. */
  middleLines: number;
  middleChars: string;
  sha256Prefix: string;
}

export interface ElisionPreview {
  /** The thresholds the plan was made with (the defaults filled in). */
  elide: ElideArgs;
  /** Results the fork would elide, the tokens they hold and what elision saves net. */
  results: number;
  tokens: number;
  netTokens: number;
  /** The largest few (three), largest first. */
  samples: ElisionSample[];
  /** Results over the threshold the fork cannot elide (one huge line, content blocks), with the first reason. */
  refused: number;
  refusedReason: string | null;
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

/** A fork undone: moved, with its side files, into the archive; the project folder is as it was before it. */
export interface ForkRemoved {
  sessionId: string;
  path: string;
  /** The session it was a fork of (still on disk). */
  originalPath: string;
  /** How many files were moved (the transcript and its side files). */
  files: number;
  /** What brings it back. */
  restoreCommand: string;
}

/** `fork:verify`, `fork:remove`, `fork:write-original`, `fork:payload` name a fork by the path of its file. */
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
  /** An elision's middle (the fork still holds its head and tail), or a whole removed payload. */
  kind: 'elided-middle' | 'payload';
}
