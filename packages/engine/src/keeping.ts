import { existsSync, statSync } from 'node:fs';
import { expiryOf, type RetentionRule } from '@glassbox/core';
import {
  applyPrune,
  archiveReport,
  autoKeepPlan,
  ensureViewCopy,
  findKept,
  isInKeptView,
  keepSession,
  KeptArchive,
  planPrune,
  restoreSession,
  verifyArchive,
  viewDirOf,
  viewPathOf,
  type ArchiveReport,
  type AutoKeepRow,
  type KeepResult,
  type KeptSession,
  type PrunePlan,
  type PruneResult,
  type RestoreResult,
  type VerifyArchiveResult,
} from '@glassbox/store/keep';
import { Refusal, refusing } from './failures';
import type { ResumeInstruction } from '@glassbox/store/fork';
import type { Setup } from './setup';

/** What a session's header says about its client's clean-up and its kept copy. */
export interface RetentionFacts {
  /** The client's name ("Claude Code"). */
  client: string;
  /** The clean-up rule that applies (null: a file the client never cleans). */
  rule: RetentionRule | null;
  /** When the client deletes it (ms), null when never. */
  expiresAt: number | null;
  kept: KeptSession | null;
  /** The session is the archive's read-only copy of one whose original is gone. */
  inKeptView: boolean;
}

/** Keeping sessions beyond their client's clean-up: keep, restore, what the archive holds, prune and verify it. */
export class Keeping {
  constructor(
    private readonly setup: Setup,
    private readonly resume: (input: { cwd: string | null; mapped: string | null; sessionId: string; sessionPath: string }) => ResumeInstruction,
  ) {}

  get archiveDir(): string {
    return this.setup.archiveDir;
  }

  /** Stores a session (with its side files) in the archive; only what changed since its last keep is written. */
  keep(path: string): KeepResult {
    return refusing(() => keepSession(path, { archiveDir: this.setup.archiveDir, agents: this.setup.agents }));
  }

  /** What "keep every session automatically" keeps now: sessions idle for a while and changed since their last keep, or near their deletion date. */
  dueForKeeping(rows: readonly AutoKeepRow[], now = Date.now()): { path: string; reason: string }[] {
    return autoKeepPlan(rows, now);
  }

  /** Every session file under every agent's roots (for `keep --all`). */
  everySession(): string[] {
    const roots = this.setup.agents.roots(this.setup.env, this.setup.home);
    return this.setup.agents.agents.flatMap((agent) =>
      agent.locator
        .discover(roots.filter((r) => r.agent === agent).map((r) => r.root))
        .filter((f) => f.kind === 'session')
        .map((f) => f.path),
    );
  }

  /** Whether a path is the archive's read-only copy of a kept session whose original is gone. */
  isKeptCopy(path: string): boolean {
    return isInKeptView(path);
  }

  /** A kept session by id, id prefix or the path it had; a path of the archive's read-only copy names its session too. */
  find(ref: string): KeptSession {
    const archive = new KeptArchive(this.setup.archiveDir);
    if (isInKeptView(ref)) {
      const hit = archive.sessions().find((s) => viewPathOf(viewDirOf(this.setup.archiveDir), s) === ref);
      if (!hit) throw new Refusal('not_kept', `${ref} is not a kept session's copy (any more)`, true);
      return hit;
    }
    return refusing(() => findKept(archive, ref));
  }

  /**
   * The file to read for a session named on the command line that is not under any root: its original
   * when still there, else the archive's read-only copy (checked against the kept hashes). Null when
   * it was never kept.
   */
  keptPath(ref: string): string | null {
    if (!existsSync(this.setup.archiveDir)) return null;
    let kept: KeptSession;
    try {
      kept = this.find(ref);
    } catch (error) {
      if (error instanceof Refusal && error.code === 'not_kept') return null;
      throw error;
    }
    if (existsSync(kept.latest.original.path)) return kept.latest.original.path;
    return refusing(() => ensureViewCopy(this.setup.archiveDir, this.setup.agents, kept));
  }

  /** Writes a kept session back where it was (never over a file), with how to resume it. */
  restore(ref: string, options: { version?: string; mapped: (cwd: string | null) => string | null; roots?: readonly string[] }): { restored: RestoreResult; resume: ResumeInstruction } {
    const kept = this.find(ref);
    const version = options.version === undefined ? undefined : options.version.endsWith('.json') ? options.version : `${options.version}.json`;
    // A kept manifest is trusted with nothing: the path it names must lie in one of the agents' folders here.
    const roots = options.roots ?? this.setup.agents.roots(this.setup.env, this.setup.home).map((r) => r.root);
    const restored = refusing(() => restoreSession(kept, { archiveDir: this.setup.archiveDir, agents: this.setup.agents, roots, ...(version ? { version } : {}) }));
    const cwd = restored.manifest.original.cwd;
    return { restored, resume: this.resume({ cwd, mapped: options.mapped(cwd), sessionId: restored.sessionId, sessionPath: restored.path }) };
  }

  report(): ArchiveReport {
    return archiveReport(this.setup.archiveDir);
  }

  /** What the archive holds now, or nothing when it was never made. */
  reportIfAny(): ArchiveReport | null {
    return existsSync(this.setup.archiveDir) ? archiveReport(this.setup.archiveDir) : null;
  }

  planPrune(cutoff: Date): PrunePlan {
    return planPrune(this.setup.archiveDir, cutoff);
  }

  prune(cutoff: Date): PruneResult {
    return refusing(() => applyPrune(this.setup.archiveDir, cutoff));
  }

  verify(onProgress?: (done: number, total: number) => void): VerifyArchiveResult {
    return verifyArchive(this.setup.archiveDir, this.setup.agents, onProgress);
  }

  /** The client's clean-up of a session and its kept copy, as facts for a header line. */
  retention(path: string, cwd: string | null, now = Date.now()): RetentionFacts {
    const sessions = existsSync(this.setup.archiveDir) ? new KeptArchive(this.setup.archiveDir).sessions() : [];
    const agent = this.setup.agentFor(path);
    if (isInKeptView(path)) {
      const kept = sessions.find((s) => viewPathOf(viewDirOf(this.setup.archiveDir), s) === path) ?? null;
      return { client: agent.format.label, rule: null, expiresAt: null, kept, inKeptView: true };
    }
    // A file outside the client's configuration folders is never cleaned.
    const inConfig = agent.locator.retention?.configFolderOf(path) ?? null;
    const rule = inConfig ? (agent.locator.retention?.ruleFor(path, cwd) ?? null) : null;
    let expiresAt: number | null = null;
    if (rule) {
      let mtime = now;
      try {
        mtime = statSync(path).mtimeMs;
      } catch {
        // Gone meanwhile: counted from now.
      }
      expiresAt = expiryOf(mtime, rule);
    }
    return { client: agent.format.label, rule, expiresAt, kept: sessions.find((s) => s.latest.original.path === path) ?? null, inKeptView: false };
  }
}
