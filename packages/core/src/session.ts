import type { Problem } from './problem';
import type { Usage } from './usage';
import type { LinkedWindow } from './snapshot';
import type { CompactionEvent } from './compaction';
import type { ClientCost } from './client-cost';

/**
 * The neutral model of one agent session, as an adapter reads it from its raw transcript.
 * It is an index, not a copy: payloads are summarised (size, hash, preview) so that memory
 * follows the resident window, not the file.
 */
export type NodeKind =
  | 'prompt'
  | 'tool-results'
  | 'meta'
  | 'assistant'
  | 'attachment'
  | 'compact-boundary'
  | 'compact-summary'
  | 'microcompact-boundary'
  | 'system'
  | 'progress'
  | 'other';

export type BlockKind =
  | 'text'
  | 'thinking'
  | 'redacted-thinking'
  | 'tool-use'
  | 'tool-result'
  | 'image'
  | 'document'
  | 'other';

/** One content block of a message, as the model sees it. */
export interface Block {
  /** Index in the message's content array (0 when the content is a plain string). */
  index: number;
  kind: BlockKind;
  /** UTF-8 bytes of what is sent to the model for this block. */
  bytes: number;
  /** Local estimate of the tokens this block costs. */
  tokens: number;
  /** sha-256 (hex) of the payload as sent; only for payloads big enough to be worth deduplicating. */
  hash?: string;
  /** The first characters, for display. */
  preview: string;
  toolUseId?: string;
  toolName?: string;
  isError?: boolean;
  /** The agent's client never sends this block, and why (an orphan result, a reply of reasoning alone…). */
  notSent?: string;
  /** Reasoning the client sends back only in requests to this model (the model that wrote it). */
  sentWithModel?: string;
  /** What the block carries, for display, when its record type alone does not say (an attachment's hook name or file). */
  label?: string;
  /**
   * The payload is a Glassbox tombstone (see tombstone-format.ts): the archive hash prefix it names,
   * '' when it names none. Set by the adapter from the text, so forks are recognised in any agent's files.
   */
  tombstone?: string;
  /** The tombstone is an elision (elision.ts): the payload's own first and last lines, and a marker naming its archived middle. */
  elided?: true;
  /**
   * The client recorded the exact text it sent for this block (Claude Code 2.1.33x attachments): it is
   * sent as recorded whatever the request's model, and sized by that text.
   */
  recordedAsSent?: boolean;
  /** Its size already holds the wrapper the client puts around reminder text (a recorded user-role attachment). */
  wrappedAsSent?: boolean;
}

/** A record that takes part in the conversation chain. */
export interface ChainNode {
  uuid: string;
  parentUuid: string | null;
  /** The chain parent a compaction boundary logically continues from. */
  logicalParentUuid?: string;
  kind: NodeKind;
  /** The raw record type, for display. */
  rawType: string;
  line: number;
  /** Byte offset of the line in the file, and its length in bytes (without the newline). */
  offset: number;
  length: number;
  timestamp?: string;
  isSidechain: boolean;
  /** Records of one API response share this id; they form one message. */
  messageId?: string;
  requestId?: string;
  model?: string;
  /** Provider-reported usage on this record (the same for every record of one response). */
  usage?: Usage;
  /** For a reply another model served in place of the one asked for: the model asked for. */
  inPlaceOfModel?: string;
  /** For a record that states which model the session runs on (not a reply): that model. */
  namesModel?: string;
  blocks: Block[];
  /** Bytes of the client-side structured mirror of a tool result (never sent to the model). */
  mirrorBytes: number;
  /** For microcompact boundaries: the tool calls whose results are no longer sent. */
  compactedToolIds?: string[];
  /** For compaction boundaries: messages kept verbatim across the compaction. */
  preservedUuids?: string[];
  /** For compaction boundaries: the uuid the preserved segment is re-parented to. */
  preservedAnchorUuid?: string;
  /** Label for attachments and system records (their subtype). */
  subtype?: string;
  /** For prompts: the prompt text's first characters. */
  promptText?: string;
  /** The agent's client never sends this record, and why (e.g. an API error it shows in place of a reply). */
  notSent?: string;
  /** A reply the client wrote itself, without a model call: it carries no real usage and names no model. */
  synthetic?: boolean;
}

/** The model of the next request, as the agent's client would choose it. */
export interface ModelChoice {
  model: string | null;
  /** Why this model: restored from the session, or the client's default and why the session's own was not kept. */
  basis: string;
}

/**
 * How the agent's client turns the window into its next request where that depends on the request's
 * model. Supplied by the adapter with the session; analysis applies it without knowing the agent.
 */
export interface RequestPolicy {
  /**
   * The versions of the agent's client whose rules the adapter knows, oldest first. A request view
   * names the client that will send the request; without one the last (the newest) is assumed.
   */
  readonly clients: readonly string[];
  /** The model the client would use when the person names none; `window` is the resident records in order. */
  defaultModel(window: readonly ChainNode[], now: Date, client?: string): ModelChoice;
  /**
   * On this model, reminder text (attachments) that follows a tool result is sent inside that result's
   * message: the bytes the client adds around each such reminder; null when it sends them on their own.
   */
  joinedReminderOverhead(model: string): number | null;
  /** Why the client leaves this block out of a request on this model, when that depends on the model; else null. */
  notSentOn?(node: ChainNode, block: Block, model: string | null, client?: string): string | null;
  /** Whether the provider keeps this model's reasoning of earlier turns in its context (unknown models: true). */
  keepsReasoning?(model: string): boolean;
}

/** Where a piece of context came from. */
export type SourceType =
  | 'file'
  | 'command'
  | 'search'
  | 'url'
  | 'mcp'
  | 'subagent'
  | 'tool'
  | 'prompt'
  | 'assistant'
  | 'thinking'
  | 'attachment'
  | 'meta'
  | 'summary';

export interface Source {
  type: SourceType;
  /** A short human label: a path relative to the working directory, a command, a URL… */
  label: string;
  /** Absolute path, for file sources. */
  path?: string;
}

/** What a tool call did, in agent-neutral terms. */
export type ToolOp =
  | ReadOp
  | { kind: 'write'; path: string; contentHash: string; contentBytes: number }
  | { kind: 'edit'; path: string; heavyBytes: number }
  | { kind: 'command'; command: string }
  | { kind: 'search'; pattern: string }
  | { kind: 'fetch'; url: string }
  | { kind: 'mcp'; server: string; tool: string }
  | { kind: 'subagent'; agentId?: string; description: string; /** The prompt's first characters, to find an inline sidechain. */ promptStart?: string }
  | { kind: 'other'; name: string };

export interface ReadOp {
  kind: 'read';
  path: string;
  /** 1-based first line captured, and how many lines. */
  startLine: number;
  numLines: number;
  totalLines: number | null;
  /** The read captured the whole file. */
  full: boolean;
  /** The client answered "unchanged since your last read" instead of content. */
  unchanged: boolean;
  /** The read was cut by a token cap: it is partial. */
  truncated: boolean;
  /**
   * The raw text the read captured (without line numbers). Parsers keep it only when asked: analysis
   * otherwise fetches it through `Session.capturedTextOf`, so memory does not grow with the file.
   */
  capturedText?: string;
  /** sha-256 of capturedText. */
  capturedHash?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  useUuid: string;
  useLine: number;
  resultUuid?: string;
  resultLine?: number;
  isError: boolean;
  op: ToolOp;
  source: Source;
}

export interface SubagentRef {
  agentId: string;
  path: string;
  /** The tool call in the parent that started it, when known. */
  toolUseId?: string;
  agentType?: string;
  description?: string;
}

/** Usage of an assistant record whose chain entry was let go (before a compaction). */
export interface UsageRecord {
  messageId: string;
  requestId?: string;
  model: string;
  line: number;
  timestamp?: string;
  usage: Usage;
  isSidechain: boolean;
  /** A reply the client wrote itself (no model ran): it carries no real usage. */
  synthetic?: boolean;
}

export interface SessionStats {
  lines: number;
  bytes: number;
  records: number;
  byType: Record<string, number>;
  /** Record types this adapter does not know, with counts: kept, never fatal. */
  unknownTypes: Record<string, number>;
  /** Bytes of client-side tool-result mirrors (file bytes, never model tokens). */
  mirrorBytes: number;
  invalidLines: number;
}

export interface Session {
  agent: string;
  id: string;
  path: string;
  cwd: string | null;
  version: string | null;
  gitBranch: string | null;
  title: string | null;
  firstPrompt: string | null;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** Chain records by uuid. */
  nodes: Map<string, ChainNode>;
  /** Uuids of chain records in file order. */
  order: string[];
  /** The leaf the agent itself would resume from. */
  leafUuid: string | null;
  toolCalls: Map<string, ToolCall>;
  subagents: SubagentRef[];
  problems: Problem[];
  stats: SessionStats;
  /** When a parent link is missing, the agent may re-link to the closest earlier record within this window. */
  parentFallbackMs: number;
  /** The adapter's bytes-per-token figure for local estimates (fitted on its provider's usage). */
  bytesPerToken: number;
  /** For subagent transcripts: the agent id. */
  agentId?: string;
  /**
   * Records before a compaction that can no longer be resumed are let go while parsing, as the
   * client's own loader does for large files; their usage is kept here for cost and the history.
   */
  prunedUsage: UsageRecord[];
  /** Chain records let go that way. */
  prunedRecords: number;
  /** Every compaction in the file, in file order (both threads); see `CompactionEvent`. */
  compactions?: CompactionEvent[];
  /** Side conversations written into this same file (old clients' inline subagents), each its own window. */
  inlineSubagents?: LinkedWindow[];
  /** Reads back the raw text a read captured, from the transcript on disk, when the parser did not keep it. */
  capturedTextOf?: (call: ToolCall) => string | null;
  /** The client's model-dependent request rules; without them every resident block counts as sent. */
  requestPolicy?: RequestPolicy;
  /** The cost the agent's client recorded for this session itself, when it writes one. */
  clientCost?: ClientCost;
  /**
   * Other records that hold a copy of a tool call's payload (a request log the client keeps), by
   * tool call id: a fork must tombstone them too, or the file keeps what it says is gone.
   */
  payloadCopies?: ReadonlyMap<string, readonly PayloadCopy[]>;
}

/** A record line that repeats a tool call's result or input. */
export interface PayloadCopy {
  line: number;
  offset: number;
  length: number;
}
