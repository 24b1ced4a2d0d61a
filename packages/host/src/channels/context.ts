import type { ForkLineageView, HostInfo, HostSync, IndexProgress, SessionRow } from '@glassbox/contract';
import type { SessionCatalog } from '../catalog';
import type { Grants } from '../grants';
import type { Jobs } from '../jobs';
import type { Keeping } from '../keeping';
import type { SnapshotHead } from '../lineage';
import type { OpenSessions } from '../open-sessions';
import type { SampleSet } from '../samples';
import type { WorkPool } from '../work/pool';

/**
 * What the channel handlers may use of the engine host (host.ts owns all of it): its parts, and the
 * calls that change what the window sees. Handlers read it when they run, never when they are made.
 */
export interface HostContext {
  readonly mode: 'electron' | 'browser';
  /** Glassbox's own folder: index, archive of originals. */
  readonly dataDir: string;
  readonly catalog: SessionCatalog;
  readonly samples: SampleSet;
  readonly grants: Grants;
  readonly keeping: Keeping;
  readonly jobs: Jobs;
  readonly work: WorkPool;
  readonly sessions: OpenSessions;
  /** Recorded working directory → folder on this machine; `repo:map` changes it in place. */
  readonly repoMap: Record<string, string>;
  /** The index's progress as last reported. */
  progress(): IndexProgress;
  /** The list version now (HostSync.version). */
  version(): number;
  /** Index progress, visible jobs and list version, as one consistent answer. */
  sync(): HostSync;
  info(): HostInfo;
  /** Looks for changed files (one refresh at a time; a second call joins the running one). */
  refresh(): Promise<void>;
  /** The folder a recorded working directory is mapped to on this machine; null when it is not mapped. */
  repoRootFor(cwd: string | null): string | null;
  /** Tells the window a row changed (kept), appeared or went. */
  rowChanged(path: string, reason: 'changed' | 'added' | 'removed'): Promise<void>;
  /** A session this run wrote (a fork, an undo): granted to the window and added to the list. */
  announce(path: string): Promise<void>;
  /** Rows that are forks link to their original; originals list their forks. */
  withLineage(rows: SessionRow[]): SessionRow[];
  lineageOf(head: SnapshotHead): ForkLineageView;
}
