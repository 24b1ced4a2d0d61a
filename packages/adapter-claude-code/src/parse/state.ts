import type { Block, ChainNode, Problem, SessionStats, ToolCall, UsageRecord } from '@glassbox/core';
import type { Json } from '../record-types';
import type { CompactionTrack } from './compaction-events';
import type { DeferredCaptureHash, DeferredDetail } from './deferred-details';

/** A tool result read before the call it answers (the TUI rewrites files out of order). */
interface PendingResult {
  block: Block;
  node: ChainNode;
  mirror: Json | undefined;
  text: string | null;
}

export interface SubagentHint {
  toolUseId: string;
  agentType?: string;
  description?: string;
}

/** What the record mappers share while a transcript is read. */
export interface ParseState {
  readonly path: string;
  readonly keepCapturedText: boolean;
  /** Only what the live chain needs (see ParserOptions.chainOnly). */
  readonly chainOnly: boolean;
  /** Previews are wanted (ParserOptions.previews; never with chainOnly). */
  readonly previews: boolean;
  cwd: string | null;
  firstPrompt: string | null;
  readonly nodes: Map<string, ChainNode>;
  readonly order: string[];
  readonly toolCalls: Map<string, ToolCall>;
  readonly problems: Problem[];
  readonly stats: SessionStats;
  readonly pendingResults: Map<string, PendingResult>;
  readonly subagentHints: Map<string, SubagentHint>;
  readonly prunedUsage: UsageRecord[];
  prunedRecords: number;
  /**
   * `order[0, settledHistory)` is history kept for good by earlier compactions (prompts, boundaries,
   * side chains in file order): later boundaries prune only what comes after it.
   */
  settledHistory: number;
  /** Model names seen, each kept once. */
  readonly models: Map<string, string>;
  readonly compactions: CompactionTrack;
  /** Blocks whose preview, hash and mark wait to be worked out until their record is known to stay (deferred-details.ts). */
  readonly deferred: DeferredDetail[];
  readonly deferredHashes: DeferredCaptureHash[];
  /** The characters those hold. */
  deferredChars: number;
  /** Client versions this file shows recording what they send with each attachment (2.1.33x `rendered`). */
  readonly renderingVersions: Set<string>;
}

/**
 * A copy of the state that a parse can finish while the original reads on (TranscriptParser.snapshot).
 * What a later record or finish() can still change is copied deep, in one structuredClone so that what
 * refers to what inside it stays so: the window since the last compaction, the pending results, tool
 * calls, problems, the compaction still open. What is settled for good is shared, so a copy costs the
 * window and not the history of a long session: the prompts and boundaries earlier compactions kept
 * (`order[0, settledHistory)`; replies among them are copied, finish() marks their reasoning), the
 * usage of pruned replies, and compactions no longer open.
 */
export function cloneState(state: ParseState): ParseState {
  const shared = new Set<string>();
  for (let i = 0; i < state.settledHistory; i++) {
    const uuid = state.order[i] as string;
    if (state.nodes.get(uuid)?.kind !== 'assistant') shared.add(uuid);
  }
  const own = [...state.nodes].filter(([uuid]) => !shared.has(uuid));
  const openEvents = new Set([...state.compactions.open.values()].map((o) => o.event));
  const copied = structuredClone({
    own,
    toolCalls: state.toolCalls,
    problems: state.problems,
    stats: state.stats,
    pendingResults: state.pendingResults,
    subagentHints: state.subagentHints,
    models: state.models,
    open: state.compactions.open,
  });
  const ownNodes = new Map(copied.own);
  const nodes = new Map<string, ChainNode>();
  for (const [uuid, node] of state.nodes) nodes.set(uuid, shared.has(uuid) ? node : (ownNodes.get(uuid) as ChainNode));
  const openCopies = new Map([...state.compactions.open.values()].map((o, i) => [o.event, [...copied.open.values()][i]?.event]));
  return {
    ...state,
    nodes,
    order: [...state.order],
    toolCalls: copied.toolCalls,
    problems: copied.problems,
    stats: copied.stats,
    pendingResults: copied.pendingResults,
    subagentHints: copied.subagentHints,
    prunedUsage: [...state.prunedUsage],
    deferred: [],
    deferredHashes: [],
    deferredChars: 0,
    models: copied.models,
    compactions: {
      events: state.compactions.events.map((e) => (openEvents.has(e) ? (openCopies.get(e) ?? e) : e)),
      open: copied.open,
    },
  };
}
