/** The session list: its rows, how it is asked for and sorted, and the index's progress behind it. */
import type { JobProgress } from './jobs';
import type { RetentionView, KeptView } from './keeping';

export type SessionSort = 'activity' | 'size' | 'context' | 'reclaimable' | 'cost';

export const SESSION_SORTS: readonly SessionSort[] = ['activity', 'size', 'context', 'reclaimable', 'cost'];

/** One line of the session browser. Figures are from the index (or a scan) so the list opens at once. */
export interface SessionRow {
  id: string;
  path: string;
  /** The projects-folder name (the slug), and a readable project name from the working directory. */
  projectDir: string;
  project: string;
  /** The agent whose session it is, as its client is called ("Claude Code", "Codex", "Gemini CLI"). */
  agent?: string;
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
  /** With a full-text hit: the context of the best one, text and matched words alternating (even: text, odd: a hit). */
  snippet?: string[];
  /** When the agent's own client deletes the session; null for clients that delete nothing. */
  retention: RetentionView | null;
  /** The session's copy in Glassbox's archive; null when it was never kept. */
  kept: KeptView | null;
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
  /** The host's list version this progress was announced at (HostSync.version): a window never applies an older one over a newer. */
  version?: number;
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
  /** The agents whose folders were searched, as their clients are called (for "no Claude Code, Codex or Gemini CLI session found"). */
  agents?: string[];
  progress: IndexProgress;
  /** The host's list version when this answer was made (see HostSync): a window that later hears a newer one reloads. */
  version: number;
  /** Bundled sample sessions exist (offered when the machine has none). */
  samples: SampleSession[];
}

export interface SampleSession {
  /** The sample's folder name (stable, for tests and links). */
  name: string;
  /** What it shows, in a few plain words ("A file deleted after it was read"). */
  title: string;
  /** One plain sentence on what to look at in it. */
  description: string;
  path: string;
}

/**
 * What a window needs to agree with the host after any gap in its events: sent first on every event
 * stream (browser mode, on connect and on every reconnect) and answered by `host:sync` (both shells).
 * `version` moves on with every list change the host announces, so a window whose list is older reloads it.
 */
export interface HostSync {
  progress: IndexProgress;
  /** Every job the window would be showing now (running and past its show delay); any other it shows as running has ended. */
  jobs: JobProgress[];
  version: number;
}
