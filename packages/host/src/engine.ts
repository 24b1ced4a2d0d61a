import type { ClassifiedSnapshot, DeadClass, Session } from '@glassbox/core';
import type { ForkCheck, ForkPreview, ForkWritten } from '@glassbox/contract';

/**
 * What the host needs from the engine packages, as one seam: analysis (the lead's package), fork
 * planning/writing/validation (the fork package). The default implementation is in engine-default.ts;
 * tests of the host use it too (no stand-ins for the engine).
 */
export interface Engine {
  analyze(input: { session: Session; subagents: Session[] }, options: { repoRoot: string | null; withSpent: boolean; model?: string }): ClassifiedSnapshot;
  /** Plans, applies and validates a fork in memory: nothing is written. */
  previewFork(input: ForkInput): ForkPreview;
  /** Writes the fork when every check passes; refuses with the failing checks otherwise. */
  writeFork(input: ForkInput): { ok: true; value: ForkWritten } | { ok: false; checks: ForkCheck[]; message: string };
}

export interface ForkInput {
  path: string;
  session: Session;
  snapshot: ClassifiedSnapshot;
  classes: DeadClass[];
  protectTail: number | undefined;
  /** Where archives of originals go (content-addressed). */
  dataDir: string;
}
