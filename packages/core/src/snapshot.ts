import type { Problem } from './problem';
import type { Source, NodeKind, BlockKind, ToolOp } from './session';
import type { Usage } from './usage';
import type { DeadClass, Proof, SegmentClass } from './classes';

export type SegmentKind =
  | 'tool-result'
  | 'tool-input'
  | 'prompt'
  | 'assistant-text'
  | 'thinking'
  | 'attachment'
  | 'meta'
  | 'compact-summary'
  | 'image'
  | 'other';

/** Text the client sends inside a segment's message that does not come from its payload (a reminder). */
export interface SegmentPart {
  kind: 'reminder';
  label: string;
  /** The record the text comes from. */
  uuid: string;
  line: number;
  bytes: number;
  tokens: number;
  preview: string;
}

export interface Segment {
  /** Stable within a transcript: `<record uuid>:<block index>` or `<record uuid>:input`. */
  id: string;
  kind: SegmentKind;
  source: Source;
  /** Estimated tokens (a local estimate, calibrated against the reported total). */
  tokens: number;
  /** Of those, the tokens a tombstone would remove (for tool inputs, only the heavy fields). */
  evictableTokens: number;
  bytes: number;
  class: SegmentClass;
  proof?: Proof;
  toolUseId?: string;
  toolName?: string;
  /** What the tool call did, in neutral terms (a read, a write, a command…), when known. */
  opKind?: ToolOp['kind'];
  uuid: string;
  line: number;
  blockIndex: number;
  blockKind: BlockKind;
  nodeKind: NodeKind;
  timestamp?: string;
  /** 0-based index of the user turn (prompt) this segment belongs to, within the resident window. */
  turn: number;
  isError?: boolean;
  /** In the protected tail or otherwise never evictable (errors, prose, thinking, summary). */
  protected: boolean;
  hash?: string;
  preview: string;
  /**
   * Reminder text the client appends to this tool result when it sends it. Included in `tokens` (it is in
   * the request, in this result's message) but not in `bytes` or `evictableTokens` (it is not the payload).
   */
  parts?: SegmentPart[];
}

export interface TurnPoint {
  /** Index of the API response in the session (main thread). */
  index: number;
  line: number;
  timestamp?: string;
  messageId: string;
  model: string;
  /** Provider-reported context size at that request. */
  contextTokens: number;
  usage: Usage;
  /** The response came after a compaction boundary at this position. */
  afterCompaction: boolean;
}

export interface ContextSummary {
  /** input + cache creation + cache read of the last main-thread API response; null when none. */
  reportedTokens: number | null;
  /** Sum of segment estimates. */
  estimatedTokens: number;
  /** Reported minus what the transcript accounts for: system prompt, tools and memory. */
  unattributedTokens: number;
  /** How segment estimates were scaled to agree with the provider's figures. */
  calibration: { factor: number; basis: string };
  compactions: number;
  microcompactions: number;
  /** Bytes of tool-result mirrors in resident records: file bytes, never sent to the model. */
  mirrorBytes: number;
  lastModel: string | null;
  /** The agent adapter's bytes-per-token figure behind every local estimate (before calibration). */
  bytesPerToken: number;
}

/** What the next request would carry, as the client builds it from the window. */
export interface RequestSummary {
  /** The model the request was assumed to use (its reasoning is the only reasoning sent). */
  model: string | null;
  /** How the model was chosen: named by the caller, or the client's own choice and why. */
  modelBasis: string;
  /** Models that wrote replies in the window, for choosing another. */
  models: string[];
  /** What the window's records hold that the client leaves out of the request, by reason. */
  notSent: { reason: string; items: number; bytes: number }[];
  /** Items as the client sends them. Empty tool results count: they answer their call though they add no bytes. */
  items: { toolCalls: number; toolResults: number; emptyResults: number; texts: number; thinking: number; attachments: number };
}

export interface ReclaimSummary {
  tokens: number;
  /** After paying for tombstones. */
  netTokens: number;
  tombstoneTokens: number;
  byClass: Record<DeadClass, { tokens: number; segments: number }>;
}

export interface LinkedWindow {
  agentId: string;
  path: string;
  toolUseId?: string;
  description?: string;
  agentType?: string;
  estimatedTokens: number;
  reportedTokens: number | null;
  segments: number;
}

export interface ClassifiedSnapshot {
  session: {
    id: string;
    path: string;
    cwd: string | null;
    version: string | null;
    gitBranch: string | null;
    title: string | null;
    agent: string;
    /** The folder the working directory was mapped to, when one was given. */
    repoRoot: string | null;
    repoExists: boolean;
  };
  leafUuid: string | null;
  context: ContextSummary;
  /** The request the window stands for; absent in snapshots made before it was computed. */
  request?: RequestSummary;
  segments: Segment[];
  reclaimable: ReclaimSummary;
  turns: TurnPoint[];
  subagents: LinkedWindow[];
  problems: Problem[];
  classes: { enabled: DeadClass[]; inferred: DeadClass[] };
  checkedAt: string;
}
