import type { Session } from '@glassbox/core';
import type { Generation } from './generation';
import type { CodexRequestUsage } from './usage';

/** The neutral session, with what only a Codex rollout tells. */
export interface CodexSession extends Session {
  agent: 'codex';
  generation: Generation | null;
  /** Every model request with its usage, in file order (compaction requests included). */
  requests: CodexRequestUsage[];
  /** The last `token_count` that reported usage: the context the last request carried. */
  reported: { line: number; inputTokens: number; totalTokens: number; contextWindow: number | null } | null;
  /** `session_meta.forked_from_id`, for a session Codex forked from another. */
  forkedFromId: string | null;
  /** A `codex exec fork` file that holds only its own part and points at its parent's file. */
  historyBase: { threadId: string; endOrdinalExclusive: number | null } | null;
}

export interface ParserOptions {
  path: string;
  /** The session id from the file name, used when no record names one. */
  fallbackId?: string;
  /** Keep the text pure reads captured in memory (callers with no file to read it back from). */
  keepCapturedText?: boolean;
}
