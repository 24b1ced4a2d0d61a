import type { AgentRegistry } from '@glassbox/core';
import type { IndexedFile } from './file-rows';
import type { IndexDatabase } from './index-database';
import type { ChangeReason, Phase, SessionChange } from './index-types';
import type { JobPool } from './pool';
import type { PlannedFile } from './refresh-plan';
import { SEARCH_ROWS_PER_FILE, type FileKey, type FileRow, type Statements } from './statements';

/** A file found by discovery (or asked for by path), and how it got into the index. */
export interface Found {
  file: IndexedFile;
  origin: 'discovered' | 'opened';
}

export type Planned = PlannedFile<Found>;

export type ProgressFn = (phase: Phase, files: number, filesTotal: number, bytes: number, bytesTotal: number) => void;

/** A file to summarise: its row as loaded, and the offset its pass starts from. */
export interface SummaryWork {
  planned: Planned;
  row: FileRow;
}

/** What the refresh stages (discover-stage.ts … analysis-stage.ts) use of the index that runs them. */
export interface RefreshContext {
  readonly store: IndexDatabase;
  readonly agents: AgentRegistry;
  readonly pool: JobPool;
  /** The folder a session's analysis checks the disk in (a mapped folder), null for the recorded cwd. */
  repoRootFor(cwd: string | null): string | null;
  /** The folder mappings repoRootFor applies (handed to a thread that learns the cwd as it reads). */
  mappings(): Record<string, string>;
  /** Tells the index's listeners that a row changed. */
  emitChange(type: SessionChange['type'], reason: ChangeReason, was: FileKey, now: FileRow | null): void;
}

/** Drops a file's search text (inside a write): a file read again from the start gets it anew. */
export function clearContent(st: Statements, id: number): void {
  st.deleteSearch.run(id * SEARCH_ROWS_PER_FILE, (id + 1) * SEARCH_ROWS_PER_FILE);
  st.deleteUsageHours.run(id);
}
