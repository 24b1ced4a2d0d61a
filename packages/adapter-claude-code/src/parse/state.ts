import type { Block, ChainNode, Problem, SessionStats, ToolCall, UsageRecord } from '@glassbox/core';
import type { Json } from '../record-types';
import type { CompactionTrack } from './compaction-events';

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
  /** Client versions this file shows recording what they send with each attachment (2.1.33x `rendered`). */
  readonly renderingVersions: Set<string>;
}
