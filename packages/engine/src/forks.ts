import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { DeadClass } from '@glassbox/core';
import { DEFAULT_ELIDE_OPTIONS, type ElideOptions } from '@glassbox/analysis';
import {
  LineageCache,
  loadManifest,
  planFromFile,
  previewFork,
  resumeInstruction,
  showSegment,
  SessionRecall,
  undoFork,
  verifyFork,
  writeFork,
  type FilePlan,
  type FilePlanOptions,
  type ForkJob,
  type ForkLineage,
  type LineageEntry,
  type ForkPreview,
  type ResumeInstruction,
  type ShownSegment,
  type UndoResult,
  type VerifyResult,
  type WriteForkResult,
} from '@glassbox/store/fork';
import { isInKeptView, moveIntoArchive } from '@glassbox/store/keep';
import { Refusal, refusing } from './failures';
import { samplesOf, type ElisionSamples } from './elision-samples';
import type { Setup } from './setup';

/** What a fork is planned from: one session file and how to plan it. */
export interface ForkRequest {
  path: string;
  /** The folder a recorded working directory is mapped to on this machine (null: the recorded one). */
  repoRootFor: (cwd: string | null) => string | null;
  /** Classes to evict (default: the proven ones, plus spent with `withInferred`). */
  classes?: readonly DeadClass[];
  withInferred?: boolean;
  /** Elision's thresholds (default: the measured defaults); used only when `classes` has `elided`. */
  elide?: Partial<ElideOptions>;
  protectTail?: number;
  minimumSavings?: number;
  /** The model of the next request (decides which reasoning is resident). */
  model?: string;
  /** The moment the prompt-cache figures are for (default: now). */
  at?: Date;
  horizon?: number;
  /** Progress and cancellation. */
  job?: ForkJob;
}

export type WrittenFork = Extract<WriteForkResult, { status: 'written' }>;

/** What writing a fork came to: written (with how to resume it), refused by validation, or nothing worth removing. */
export type ForkOutcome =
  | { status: 'written'; plan: FilePlan; written: WrittenFork; resume: ResumeInstruction }
  | { status: 'refused'; plan: FilePlan; refused: Extract<WriteForkResult, { status: 'refused' }> }
  | { status: 'nothing-to-remove'; plan: FilePlan };

/** A fork taken off the disk: moved, with its side files, into the archive (where `glassbox restore` finds it). */
export interface RemovedFork {
  forkId: string;
  path: string;
  /** The session it was a fork of (still on disk). */
  originalPath: string;
  /** Every file removed (the transcript first). */
  removed: string[];
  /** The kept version that holds it now. */
  keptVersion: string;
  restoreCommand: string;
}

/** Marks the plan that found nothing to remove, so the write stops without being read as a moved source. */
class NothingToRemove extends Error {}

/** Forks: plan, preview, write, verify, undo, and payloads back from the archive. One implementation for every shell. */
export class Forks {
  private readonly lineages: LineageCache;

  constructor(private readonly setup: Setup) {
    this.lineages = new LineageCache(setup.archiveDir, setup.agents);
  }

  private planOptions(r: ForkRequest): FilePlanOptions {
    const o: FilePlanOptions = {
      repoRootFor: r.repoRootFor,
      withInferred: r.withInferred === true || (r.classes?.includes('spent') ?? false),
      agent: this.setup.agentFor(r.path),
      at: r.at ?? new Date(),
    };
    if (r.classes) o.classes = r.classes;
    // Elision is classified only when it is chosen: it never enters a plan nobody asked it into.
    if (r.classes?.includes('elided')) o.elide = elideOptions(r.elide);
    if (r.protectTail !== undefined) o.protectTail = r.protectTail;
    if (r.minimumSavings !== undefined) o.minimumSavings = r.minimumSavings;
    if (r.model !== undefined) o.model = r.model;
    if (r.horizon !== undefined) o.horizon = r.horizon;
    if (r.job) o.job = r.job;
    return o;
  }

  /** Plans from the file as it would be forked, builds the fork line by line and validates it: nothing is written. */
  preview(r: ForkRequest): ForkPreview {
    return refusing(() => previewFork(r.path, this.planOptions(r)));
  }

  /**
   * What elision alone would do at these thresholds (the fork wizard's elision step): the plan with
   * `elided` as its only class, nothing protected but the tail and no minimum, and the largest
   * `count` elisions as the fork builder cuts them from the session's own text. Nothing is written.
   */
  elisionSamples(r: Omit<ForkRequest, 'classes' | 'withInferred' | 'minimumSavings' | 'horizon'>, count = 3): ElisionSamples {
    const elide = elideOptions(r.elide);
    const planned = refusing(() => planFromFile(r.path, { ...this.planOptions({ ...r, classes: ['elided'], elide, minimumSavings: 0 }) }));
    return samplesOf(planned.plan, elide, count);
  }

  /**
   * Writes the fork beside the original when every check passes. The plan is made inside the write
   * (again when the file changes meanwhile), so the original's copy into the archive runs beside it.
   */
  write(r: ForkRequest): ForkOutcome {
    if (isInKeptView(r.path)) {
      const id = basename(r.path).replace(/\.jsonl$/i, '');
      throw new Refusal('kept_copy', `${r.path} is a kept session whose original is gone: Glassbox reads it from the archive but writes nothing beside that copy. Restore it first (glassbox restore ${id}), then fork it.`, false);
    }
    const options = this.planOptions(r);
    const agent = options.agent ?? this.setup.agentFor(r.path);
    let last: FilePlan | null = null;
    let result: WriteForkResult;
    try {
      result = refusing(() =>
        writeFork({
          sourcePath: r.path,
          agents: this.setup.agents,
          format: agent.format,
          archiveDir: this.setup.archiveDir,
          ...(r.job ? { job: r.job } : {}),
          prepare: (src) => {
            const planned = planFromFile(src.path, { ...options, forkSessionId: src.forkId });
            last = planned;
            if (planned.plan.actions.length === 0) throw new NothingToRemove();
            return { actions: planned.actions, cwd: planned.session.cwd, indexed: planned.indexed, session: planned.session };
          },
        }),
      );
    } catch (error) {
      if (error instanceof NothingToRemove && last) return { status: 'nothing-to-remove', plan: last };
      throw error;
    }
    const plan = last as FilePlan | null;
    if (!plan) throw new Error('a fork was written without a plan');
    if (result.status === 'refused') return { status: 'refused', plan, refused: result };
    const resume = this.resume({ cwd: plan.session.cwd, mapped: plan.snapshot.session.repoRoot, sessionId: result.forkId, sessionPath: result.forkPath });
    return { status: 'written', plan, written: result, resume };
  }

  /** Re-runs a fork's validation against its archived original (hash-checked). */
  verify(ref: string, job?: ForkJob): VerifyResult {
    return refusing(() => verifyFork(ref, { agents: this.setup.agents, archiveDir: this.setup.archiveDir, ...(job ? { job } : {}) }));
  }

  /** Writes the archived original of a fork back as a new sibling session, with how to resume it. */
  undo(ref: string, mapped: (cwd: string | null) => string | null, job?: ForkJob): { undone: UndoResult; resume: ResumeInstruction } {
    const undone = refusing(() => undoFork(ref, { agents: this.setup.agents, archiveDir: this.setup.archiveDir, ...(job ? { job } : {}) }));
    const cwd = undone.manifest.cwd;
    return { undone, resume: this.resume({ cwd, mapped: mapped(cwd), sessionId: undone.sessionId, sessionPath: undone.path }) };
  }

  /**
   * Undoes a fork: moves it, with its side files, into the archive, so the project folder is as it was
   * before the fork. Only a file Glassbox wrote (its manifest names that very path) is removed, and only
   * while the session it came from is still on disk; `glassbox restore <fork id>` brings it back.
   */
  remove(ref: string): RemovedFork {
    const { manifest } = refusing(() => loadManifest(ref, { agents: this.setup.agents, archiveDir: this.setup.archiveDir }));
    const path = manifest.forkPath;
    const id = manifest.forkId;
    if (ref.endsWith('.jsonl') && resolve(ref) !== resolve(path)) {
      throw new Refusal('not_a_fork', `${ref} is not the file Glassbox wrote for fork ${id} (that is ${path}); nothing was removed`, true);
    }
    if (!existsSync(path)) throw new Refusal('not_on_disk', `fork ${id} is not at ${path} any more (undone already?); nothing was removed`, true);
    if (!existsSync(manifest.original.path)) {
      throw new Refusal(
        'original_missing',
        `${manifest.original.path}, the session fork ${id} was made from, is not on disk: removing the fork would leave neither. Write the original back first (glassbox write-original ${id}); nothing was removed`,
        false,
      );
    }
    const moved = refusing(() => moveIntoArchive(path, { archiveDir: this.setup.archiveDir, agents: this.setup.agents, reason: `${manifest.kind === 'undo' ? 'restored original' : 'fork'} undone` }));
    return { forkId: id, path, originalPath: manifest.original.path, removed: moved.removed, keptVersion: moved.version, restoreCommand: `glassbox restore ${moved.sessionId}` };
  }

  /** Payloads a fork removed, back from the archive (hash-checked). */
  show(ref: string, segment: string): ShownSegment[] {
    return refusing(() => showSegment(ref, segment, { agents: this.setup.agents, archiveDir: this.setup.archiveDir }));
  }

  /**
   * What one session can recall from the archive (read-only): its forks' elided middles and
   * tombstoned payloads, and nothing of any other session's.
   */
  recall(sessionId: string): SessionRecall {
    return new SessionRecall(this.setup.archiveDir, this.setup.agents, sessionId);
  }

  /** Which sessions are forks of which, from the archive's manifests (read again when the archive's fork list changed). */
  lineage(): ForkLineage {
    const all = this.lineages.get();
    // An original lists the forks still on disk: an undone fork (moved into the archive) is not one of them any more.
    let forksOf: Map<string, LineageEntry[]> | null = null;
    for (const [id, forks] of all.forksOf) {
      const here = forks.filter((f) => existsSync(f.forkPath));
      if (here.length === forks.length) continue;
      forksOf ??= new Map(all.forksOf);
      if (here.length > 0) forksOf.set(id, here);
      else forksOf.delete(id);
    }
    return forksOf ? { ...all, forksOf } : all;
  }

  /** How to resume a session on this machine: the agent's own rule, from the folder that exists. */
  resume(input: { cwd: string | null; mapped: string | null; sessionId: string; sessionPath: string }): ResumeInstruction {
    return resumeInstruction({ ...input, format: this.setup.agentFor(input.sessionPath).format });
  }
}

/** Elision's thresholds: the defaults, with what the caller gave. */
export function elideOptions(given: Partial<ElideOptions> | undefined): ElideOptions {
  return { overTokens: given?.overTokens ?? DEFAULT_ELIDE_OPTIONS.overTokens, keep: given?.keep ?? DEFAULT_ELIDE_OPTIONS.keep };
}

/**
 * The commands that wire `glassbox mcp` to a resumed session, for each client: the server reads only
 * this session's archive, and sends content only because the flag says so.
 */
export function mcpWiring(sessionId: string, archiveDir: string | null): { claude: string; codex: string } {
  const args = ['glassbox', 'mcp', sessionId, ...(archiveDir ? ['--archive', archiveDir] : []), '--send-content-to-model-provider'].map(quoteArg).join(' ');
  return { claude: `claude mcp add glassbox-recall -- ${args}`, codex: `codex mcp add glassbox-recall -- ${args}` };
}

function quoteArg(a: string): string {
  return /^[A-Za-z0-9_./:=@-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
