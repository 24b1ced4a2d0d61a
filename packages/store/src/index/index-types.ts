import type { AgentRegistry } from '@glassbox/core';
import type { UsageHourDelta } from './usage-hours';
import type { SessionRow } from './rows';

/** The session index's options, events and reports (session-index.ts is the index itself). */

export interface OpenIndexOptions {
  /** The database file. Default: `<data dir>/index.db` (see paths.ts; `GLASSBOX_DATA_DIR` overrides). */
  dbPath?: string;
  /** Folder for `index.db` when dbPath is not given (the desktop app passes its userData folder). */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** The agents whose transcripts are indexed (from the composition root, `@glassbox/agents`). */
  agents: AgentRegistry;
  /** The folders to index, for every agent. Default: each agent's own roots (e.g. CLAUDE_CONFIG_DIR, else ~/.config/claude and ~/.claude). */
  roots?: string[];
  /** Folder mappings for this run only (e.g. `glassbox ui --repo`), over the saved ones; not saved. */
  repoMap?: Record<string, string>;
  /**
   * Glassbox's archive (`<data>/archive`): rows carry their kept copy, and kept sessions whose originals
   * are gone are listed from read-only copies (see keep/view.ts). Without it, neither.
   */
  archiveDir?: string;
  /** Worker threads for summaries and analyses; 0 runs them inline. Default: one per core. */
  workers?: number;
  /** A better-sqlite3 binary built for another ABI (Electron). */
  nativeBinding?: string;
  /** Where worker threads start (bundlers move files: the desktop app passes its own entry). */
  workerUrl?: URL;
}

export type Phase = 'discover' | 'list' | 'summary' | 'analysis' | 'done';

export interface Progress {
  phase: Phase;
  files: number;
  filesTotal: number;
  bytes: number;
  bytesTotal: number;
  elapsedMs: number;
}

export type ChangeReason = 'new' | 'appended' | 'rewritten' | 'deleted' | 'unreadable' | 'summarised' | 'analysed';

/** What changed in the index, so a window can update one row. `row` is null for removals. */
export interface SessionChange {
  type: 'added' | 'updated' | 'removed';
  reason: ChangeReason;
  path: string;
  sessionId: string;
  kind: 'session' | 'subagent';
  row: SessionRow | null;
}

export interface RefreshOptions {
  onProgress?: (p: Progress) => void;
  /** Forget everything and index from scratch. */
  rebuild?: boolean;
  /** Run the full analysis (reclaimable by class) after the summaries. Default true. */
  analyze?: boolean;
  /** Only these paths (the watcher's changed files); default: discover every root. */
  paths?: string[];
  /**
   * Stops the refresh: files not yet read are left as they are (the next refresh reads them), what
   * was read is kept, and the analysis stage is skipped.
   */
  signal?: AbortSignal;
}

export interface RefreshReport {
  files: number;
  unchanged: number;
  added: number;
  appended: number;
  rewritten: number;
  removed: number;
  unreadable: number;
  analysed: number;
  bytesRead: number;
  /** Every file opened for reading in this refresh (an unchanged file never is). */
  opened: string[];
  notices: string[];
  /** When every row of the list existed with its list figures. */
  listReadyMs: number;
  summaryDoneMs: number;
  elapsedMs: number;
}

/** One bucket of usage_hours (see SessionIndex.usageHours). `hour`: 'YYYY-MM-DDTHH' in UTC, or 'unknown'. */
export interface UsageHour extends UsageHourDelta {
  sessionPath: string;
}
