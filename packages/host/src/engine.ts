import type { AgentFormat, ClassifiedSnapshot, CompactionHistory, DeadClass, LoadedSession, Session } from '@glassbox/core';
import type { LineSource } from '@glassbox/store';
import type { ForkCheck, ForkPayload, ForkPreview, ForkVerified, ForkWritten } from '@glassbox/contract';
import type { ForkJob, ForkLineage } from '@glassbox/store/fork';

/**
 * What the host needs from the engine packages, as one seam: analysis (the lead's package), fork
 * planning/writing/validation (the fork package). The default implementation is in engine-default.ts;
 * tests of the host use it too (no stand-ins for the engine).
 */
export interface Engine {
  /**
   * `diskless`: the working directory is not looked up at all (a dropped file, whose recorded paths
   * came from elsewhere: proving "gone" for them would say which files exist here). `model`: the model
   * of the next request (default: the one the client would resume on).
   */
  analyze(input: { session: Session; subagents: Session[] }, options: { repoRoot: string | null; withSpent: boolean; diskless?: boolean; readScope?: readonly string[] | null; model?: string }): ClassifiedSnapshot;
  /**
   * Every compaction of a session and its subagents, x-rayed (docs/compactions.md). `source`: the
   * session's bytes when they are not on disk (a dropped file); `diskless` as for `analyze`.
   */
  compactions(input: { format: AgentFormat; loaded: LoadedSession; source?: LineSource }, options: { repoRoot: string | null; diskless?: boolean; readScope?: readonly string[] | null }): CompactionHistory[];
  /** Plans, applies and validates a fork, streaming the file: nothing is written. `job`: progress and cancellation. */
  previewFork(input: ForkInput, job?: ForkJob): ForkPreview;
  /** Writes the fork when every check passes; refuses with the failing checks otherwise. */
  writeFork(input: ForkInput, job?: ForkJob): { ok: true; value: ForkWritten } | { ok: false; checks: ForkCheck[]; message: string };
  /** Which sessions are forks of which, from the archive's manifests. */
  lineage(dataDir: string): ForkLineage;
  /** Re-runs a fork's validation against its archived original; failures are reported as `glassbox verify` reports them. */
  verifyFork(forkPath: string, dataDir: string, job?: ForkJob): ForkResult<ForkVerified>;
  /** Writes the archived original of a fork back as a new sibling session. */
  undoFork(forkPath: string, dataDir: string, mapped: (cwd: string | null) => string | null, job?: ForkJob): ForkResult<ForkWritten>;
  /** A payload the fork removed, back from the archive (hash-checked). */
  forkPayload(forkPath: string, segmentId: string, dataDir: string): ForkResult<ForkPayload>;
}

/** A fork operation's value, or why it failed in the CLI's words (`bad` = the fork or segment does not exist). */
export type ForkResult<T> = { ok: true; value: T } | { ok: false; bad: boolean; message: string };

export interface ForkInput {
  /** The session file (its real path). */
  path: string;
  /** The folder its working directory is mapped to on this machine; null for the recorded one. */
  repoRoot: string | null;
  classes: DeadClass[];
  protectTail: number | undefined;
  /** Where archives of originals go (content-addressed). */
  dataDir: string;
}
