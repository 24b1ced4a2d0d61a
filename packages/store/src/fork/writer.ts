import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { AgentFormat, AgentRegistry, AppliedAction, ForkAction, RefusedAction, Session, SessionSideFiles, ValidationReport } from '@glassbox/core';
import { agentForFile } from '@glassbox/file-io';
import { Archive, archiveDir, sha256Hex, type IncomingObject } from './archive';
import { elidedMiddles, elisionOf } from './elision';
import { ArchiveCopy, MIN_THREADED_BYTES, type ArchiveThread, type ArchivedOriginal } from './archive-copy';
import { ForkError, describe, fsyncDir, publishTemp, safeUnlink, tempPathFor, writeTempFile } from '../shared/atomic';
import { SourceMoved, forkPass, indexPass, type ForkPassResult, type IndexedFork } from './fork-pass';
import { NO_JOB, type ForkJob } from './job';
import { sweepLeftovers } from './leftovers';
import { checksumFile, sameStamp, stampOfPath, type SourceStamp } from './lines';
import type { ForkManifest, ManifestAction } from './manifest';
import { LineOutput } from './output';
import { fileHistoryFolderOf, prepareSidecars, sessionFolderOf, sidecarTarget, type SideFolders, type SidecarFile } from './sidecars';
import { isInKeptView } from '../shared/kept-view-paths';
import { makeFolders, namingOf, removeEmptyFolders } from './naming';

/** An action as a plan names it; the extra fields go into the manifest. */
export type PlanAction = ForkAction & { class?: string; tokensFreed?: number; tombstoneTokens?: number };

/** The file a fork is planned from: the plan reads it itself (see planFromFile). */
export interface ForkSource {
  path: string;
  /** The session id the fork will get. */
  forkId: string;
}

/** A plan for the writer: the actions, and the fork builder its index pass prepared for `forkId`, if it has one. */
interface ForkPlan {
  actions: PlanAction[];
  cwd?: string | null;
  indexed?: IndexedFork | null;
  /** The session the plan parsed from the file (the validator takes the original's live chain from it). */
  session?: Session;
}

export interface WriteForkOptions {
  sourcePath: string;
  /**
   * Plans the fork from the file as it is now. Called again if the source changes while the fork
   * is prepared, so the plan always matches the bytes (the file's stamp — size, times, inode — is
   * checked around it and at every later pass, and the bytes' hash between passes).
   */
  prepare: (source: ForkSource) => ForkPlan;
  /** The agents Glassbox reads: the one that recognises the file writes its fork (or `format`'s). */
  agents: AgentRegistry;
  /** The agent whose transcript it is (default: the one that recognises the file). */
  format?: AgentFormat;
  archiveDir?: string;
  env?: NodeJS.ProcessEnv;
  /** The fork's session id (by default a new one, as the agent's client makes them: naming.ts). */
  newSessionId?: string;
  /** Copy `<session>/subagents/` and `<session>/tool-results/` into the fork's folder (default true). */
  carrySidecars?: boolean;
  /** Called after the fork is planned, before the source is read again: lets tests play a live session. */
  beforeCommit?: (attempt: number) => void;
  /** Progress and cancellation (the app's Cancel button). */
  job?: ForkJob;
  /** Whether the original is copied into the archive, and the fork hashed, on threads of their own (default: for big files). */
  archiveThread?: ArchiveThread;
  /** The time of writing: the manifest's, and the fork's name and date folder where the agent names sessions by time. */
  now?: () => Date;
}

export type WriteForkResult =
  | {
      status: 'written';
      forkId: string;
      forkPath: string;
      sidecarDir: string | null;
      manifestPath: string;
      manifest: ForkManifest;
      report: ValidationReport;
      applied: AppliedAction[];
      refused: RefusedAction[];
      /**
       * sha-256 of the original as archived, before and after the write: equal, or the fork would not
       * have been kept (after the write the file is read once more and must give the same bytes).
       */
      originalSha256: { before: string; after: string };
      attempts: number;
      repairedArchiveObjects: number;
    }
  | { status: 'refused'; report: ValidationReport; applied: AppliedAction[]; refused: RefusedAction[]; forkId: string };

const MAX_ATTEMPTS = 2;
/** Index passes already used by a write: a builder goes through its transform pass once. */
const consumed = new WeakSet<IndexedFork>();

/**
 * Writes a cleaned sibling of a session. The original is only read (through read-only descriptors),
 * in a bounded number of passes and never whole: the plan reads it (the caller's `prepare`), an index
 * pass finds the lines the plan touches, and one last pass transforms each line, validates it against
 * its original, writes it to the fork's temporary file and copies the original's bytes into the
 * content-addressed archive. Only a fork that passes validation is kept: then the original's archive
 * object is named by its hash, the carried-over subagent/tool-result files and the fork get their
 * final names (never over an existing file or folder), and last the manifest: a manifest always has
 * its fork. The fork and its side files take their originals' permission bits. If the source changes
 * meanwhile (a live session appending), the whole preparation starts again once, then the fork is
 * refused. Anything created by a failed or cancelled attempt is removed, and what a process killed
 * mid-write left (its temporary files, an older build's manifest written before its fork) is removed
 * by the next run.
 *
 * Why the manifest is a sidecar in the archive and not part of the fork: the fork must stay a plain
 * transcript that differs from its original only in payloads and session id (that is what the
 * validator and the real client's resume check), and the client appends to it when it is resumed; the
 * archive is Glassbox's own place, keyed by the fork id, so `verify`, `show` and `undo` find the
 * original's hash, its path and every removed payload from the fork id alone.
 */
export function writeFork(given: WriteForkOptions): WriteForkResult {
  // The manifest records absolute paths (verify and undo check that they are).
  const options = { ...given, sourcePath: resolve(given.sourcePath) };
  if (isInKeptView(options.sourcePath)) {
    throw new ForkError('invalid', `${options.sourcePath} is Glassbox's read-only copy of a kept session whose original is gone: restore it first (glassbox restore <session>), then fork the restored session`);
  }
  const agents = options.agents;
  const agent = options.format ? agents.byId(options.format.id) : agentForFile(agents, options.sourcePath);
  const format = options.format ?? agent.format;
  const job = options.job ?? NO_JOB;
  const archive = new Archive(archiveDir(options.env ?? process.env, options.archiveDir));
  // Named as the agent's client names its sessions, so that its resume finds the fork by id (naming.ts).
  const naming = namingOf(agent);
  const now = options.now?.() ?? new Date();
  const forkId = options.newSessionId ?? naming.newSessionId(now);
  const forkPath = naming.pathFor(options.sourcePath, forkId, now);
  const dir = dirname(forkPath);
  const madeFolders = makeFolders(dir);
  let written = false;
  try {
    // Also where the agent's side folders are staged (Gemini CLI's tool-outputs/).
    const sideParents = (agent.locator.sideFiles?.folders(forkPath, forkId) ?? []).map((f) => dirname(f.path)).filter((p) => p !== dir);
    sweepInterrupted(archive, [dir, fileHistoryParentOf(options.sourcePath), ...new Set(sideParents)]);
    const mode = modeOf(options.sourcePath);
    for (let attempt = 1; ; attempt++) {
      job.throwIfCancelled();
      const before = stampOfPath(options.sourcePath);
      if (!before) throw new ForkError('source_unreadable', `${options.sourcePath}: no such file`);
      // The original goes into the archive on another thread while the plan reads it.
      const copy = ArchiveCopy.start(archive, options.sourcePath, options.archiveThread);
      try {
        const result = attemptFork({ options, format, side: agent.locator.sideFiles, job, archive, forkId, forkPath, mode, before, copy, attempt });
        if (result !== 'moved') {
          written = result.status === 'written';
          return result;
        }
      } finally {
        // Stops the copy if the attempt ended early; once the object is published this removes nothing.
        copy?.discard();
      }
      if (attempt >= MAX_ATTEMPTS) throw sourceChanged(options.sourcePath, attempt);
    }
  } finally {
    // A date folder made for a fork that was not written goes again.
    if (!written) removeEmptyFolders(madeFolders);
  }
}

interface Attempt {
  options: WriteForkOptions;
  format: AgentFormat;
  /** The agent's side folders of a session (AgentLocator.sideFiles), when it keeps them apart from the transcript. */
  side: SessionSideFiles | undefined;
  job: ForkJob;
  archive: Archive;
  forkId: string;
  forkPath: string;
  mode: number;
  before: SourceStamp;
  copy: ArchiveCopy | null;
  attempt: number;
}

/** One attempt of writeFork: its result, or 'moved' when the source changed under it (try again). */
function attemptFork(a: Attempt): WriteForkResult | 'moved' {
  const { options, format, side, job, archive, forkId, forkPath, mode, before, copy, attempt } = a;
  let plan;
  try {
    plan = options.prepare({ path: options.sourcePath, forkId });
  } catch (error) {
    if (!(error instanceof ForkError && error.code === 'source_changed')) throw error;
    return 'moved';
  }
  if (!sameStamp(before, stampOfPath(options.sourcePath))) {
    return 'moved';
  }
  options.beforeCommit?.(attempt);
  let prepared: IndexedFork;
  // The plan's own index pass, when it was made for this fork and for these actions (used once);
  // the fork pass checks that the file is still the one it read.
  const reuse = plan.indexed;
  const planned = new Set(plan.actions.map((a) => a.segmentId));
  if (reuse && reuse.newSessionId === forkId && !consumed.has(reuse) && reuse.prepared.applied.every((a) => planned.has(a.action.segmentId))) {
    consumed.add(reuse);
    prepared = reuse;
  } else {
    try {
      prepared = indexPass(format, options.sourcePath, plan.actions, forkId, { job, expect: before });
    } catch (error) {
      if (!(error instanceof SourceMoved)) throw error;
      return 'moved';
    }
  }
  if (prepared.prepared.applied.length === 0) {
    throw new ForkError('nothing_to_do', `nothing in ${options.sourcePath} can be tombstoned with this plan; no fork was written`);
  }
  // A big fork is hashed on a thread as it is written, as its original is copied on one.
  const when = options.archiveThread ?? 'auto';
  const output = new LineOutput(forkPath, mode, { digestThread: when === 'always' || (when === 'auto' && before.size >= MIN_THREADED_BYTES), waitForThread: when === 'always' });
  // The copy thread's object, unless the pass is to make the copy (no thread, or it had not begun).
  const threaded = copy?.claim() ?? false;
  let incoming: IncomingObject | null = null;
  // Never closed under the thread's writes: a thread's object goes through the copy.
  const dropIncoming = (): void => (copy ? copy.discard() : incoming?.discard());
  let run: ForkPassResult;
  let fork: { sha256: string; crc32: number; bytes: number };
  let archived: ArchivedOriginal;
  try {
    incoming = copy?.incoming ?? archive.incoming();
    // The plan's session is of the bytes its index pass read: used only with that pass.
    const original = prepared === plan.indexed && plan.session ? { original: plan.session } : {};
    run = forkPass(format, options.sourcePath, prepared, { output, ...(threaded ? {} : { archive: incoming }), job, ...original });
    fork = output.close();
    const got = threaded && copy ? copy.wait(job) : { sha256: run.source.sha256 as string, crc32: run.source.crc32, bytes: run.source.bytes, stamp: run.source.stamp };
    if (!got) throw new SourceMoved(options.sourcePath);
    archived = got;
    // The archived bytes must be the ones the fork was made from.
    if (archived.crc32 !== run.source.crc32 || archived.bytes !== run.source.bytes || !sameStamp(archived.stamp, run.source.stamp)) throw new SourceMoved(options.sourcePath);
  } catch (error) {
    output.discard();
    dropIncoming();
    if (!(error instanceof SourceMoved)) throw error;
    return 'moved';
  }
  const applied = run.outcome.applied;
  const refused = run.outcome.refused;
  if (!run.report.ok) {
    output.discard();
    dropIncoming();
    return { status: 'refused', report: run.report, applied, refused, forkId };
  }
  let sidecars: SidecarFile[];
  try {
    job.throwIfCancelled();
    const originalId = run.report.original.sessionId;
    sidecars = options.carrySidecars === false ? [] : prepareSidecars(options.sourcePath, forkId, format, side && originalId ? { files: side, sessionId: originalId } : undefined);
  } catch (error) {
    output.discard();
    dropIncoming();
    throw error;
  }
  const sourceSha = archived.sha256;
  const manifest = manifestFor(run, sourceSha, plan.cwd ?? null, options, forkId, forkPath, mode, fork, sidecars);
  // Every removed payload, and each elision's middle on its own (the object its marker names).
  const payloads = [...applied.flatMap((a) => a.removed.map((r) => r.text)), ...elidedMiddles(applied)];
  const written = commit(archive, manifest, forkPath, output.temp, sidecars, payloads, { incoming, sha256: sourceSha }, job, side?.folders(forkPath, forkId));
  // The original read once more: its bytes must be the ones archived (CRC-32 of the same bytes),
  // or the source moved while the fork was being written and the fork no longer matches it.
  const again = checksumFile(options.sourcePath, { job, stage: 'checking the original' });
  if (again.crc32 !== run.source.crc32 || again.bytes !== run.source.bytes) {
    rollback(archive, manifest.forkId, forkPath, written.created);
    return 'moved';
  }
  const after = sourceSha;
  // Read back what landed on disk: the very bytes that were validated, or the fork is removed.
  const landed = checksumFile(forkPath, { job, stage: 'checking the fork' });
  if (landed.crc32 !== fork.crc32 || landed.bytes !== fork.bytes) {
    rollback(archive, manifest.forkId, forkPath, written.created);
    throw new ForkError('unwritable', `the fork read back from ${forkPath} does not match what was written; it was removed`);
  }
  return {
    status: 'written',
    forkId,
    forkPath,
    sidecarDir: written.sidecarDir,
    manifestPath: archive.manifestPath(forkId),
    manifest,
    report: run.report,
    applied,
    refused,
    originalSha256: { before: sourceSha, after },
    attempts: attempt,
    repairedArchiveObjects: written.repaired,
  };
}

function sourceChanged(path: string, attempts: number): ForkError {
  return new ForkError(
    'source_changed',
    `${path} changed while the fork was being prepared (${attempts} attempts): the session is probably still running. ` +
      'Nothing was written; try again when it is idle.',
  );
}

function manifestFor(
  run: ForkPassResult,
  originalSha256: string,
  cwd: string | null,
  options: WriteForkOptions,
  forkId: string,
  forkPath: string,
  mode: number,
  fork: { sha256: string; bytes: number },
  sidecars: readonly SidecarFile[],
): ForkManifest {
  const applied = run.outcome.applied;
  const actions: ManifestAction[] = applied.map((a) => {
    const planned = a.action as PlanAction;
    const m: ManifestAction = {
      segmentId: a.action.segmentId ?? `${a.action.uuid}:${a.action.target === 'tool-input' ? 'input' : a.action.blockIndex}`,
      uuid: a.action.uuid,
      line: a.line,
      blockIndex: a.action.blockIndex,
      target: a.action.target,
      toolName: a.toolName,
      tombstone: a.action.tombstone,
      removed: a.removed.map((r) => ({ path: r.path, sha256: sha256Hex(r.text), bytes: Buffer.byteLength(r.text, 'utf8'), sentToModel: r.sentToModel })),
    };
    if (a.action.toolUseId !== undefined) m.toolUseId = a.action.toolUseId;
    if (planned.class !== undefined) m.class = planned.class;
    if (planned.tokensFreed !== undefined) m.tokensFreed = planned.tokensFreed;
    const elision = elisionOf(a);
    if (elision) m.elision = elision;
    return m;
  });
  const originalSessionId = run.report.original.sessionId ?? basename(options.sourcePath, '.jsonl');
  return {
    version: 1,
    kind: 'clean',
    forkId,
    forkPath,
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    cwd,
    original: { path: resolve(options.sourcePath), sessionId: originalSessionId, sha256: originalSha256, bytes: run.source.bytes, lines: run.source.lines, mode },
    fork: { sha256: fork.sha256, bytes: fork.bytes, lines: run.source.lines },
    sidecars: sidecars.map((s) => ({ rel: s.rel, originalSha256: sha256Hex(s.original), forkSha256: sha256Hex(s.fork), sessionIdRewritten: s.sessionIdRewritten })),
    actions,
    totals: {
      tokensFreed: applied.reduce((n, a) => n + ((a.action as PlanAction).tokensFreed ?? 0), 0),
      tombstoneTokens: applied.reduce((n, a) => n + ((a.action as PlanAction).tombstoneTokens ?? 0), 0),
      bytesRemoved: applied.reduce((n, a) => n + a.bytesBefore - a.bytesAfter, 0),
    },
  };
}

/**
 * Archives the original (its object, streamed in while the fork was written, or already there) and
 * every removed payload and sidecar original; writes every new folder (the fork's session folder, its
 * checkpoint folder) under a temporary name beside its final one; then gives the folders and the fork
 * (already written to `forkTemp`) their names, never over anything that exists, and writes the
 * manifest last. On failure removes what this call created, the fork's temporary file included; if
 * the process dies, only temporary names (and archive objects) are left, which the next run removes.
 */
export function commit(
  archive: Archive,
  manifest: ForkManifest,
  forkPath: string,
  forkTemp: string,
  sidecars: readonly SidecarFile[],
  archiveFirst: readonly (Buffer | string)[] = [],
  original: { incoming: IncomingObject; sha256: string } | null = null,
  job: ForkJob = NO_JOB,
  /** The agent's side folders for the session written (AgentLocator.sideFiles), when it has them. */
  folders: SideFolders = [],
): { sidecarDir: string | null; created: string[]; repaired: number } {
  let repaired = 0;
  const staged = new Map<string, string>();
  const created: string[] = [];
  let temp: string | null = forkTemp;
  let forkNamed = false;
  try {
    if (original && original.incoming.publish(original.sha256, job).repaired) repaired++;
    for (const obj of archiveFirst) if (archive.put(obj).repaired) repaired++;
    for (const s of sidecars) if (archive.put(s.original).repaired) repaired++;
    for (const s of sidecars) {
      const { folder, path } = sidecarTarget(forkPath, s.rel, folders);
      let stage = staged.get(folder);
      if (!stage) {
        if (existsSync(folder)) throw new ForkError('exists', `${folder} already exists; it was left as it was and nothing was written`);
        stage = tempPathFor(folder);
        makeDir(dirname(folder), true);
        makeDir(stage, false);
        staged.set(folder, stage);
      }
      const target = join(stage, relative(folder, path));
      makeDir(dirname(target), true);
      publishTemp(writeTempFile(target, s.fork, s.mode), target);
    }
    for (const [folder, stage] of staged) {
      if (existsSync(folder)) throw new ForkError('exists', `${folder} already exists; it was left as it was and nothing was written`);
      renameSync(stage, folder);
      staged.delete(folder);
      created.push(folder);
      fsyncDir(dirname(folder));
    }
    publishTemp(forkTemp, forkPath);
    temp = null;
    forkNamed = true;
    archive.putManifest(manifest);
  } catch (error) {
    original?.incoming.discard();
    if (temp) safeUnlink(temp);
    if (forkNamed) safeUnlink(forkPath);
    for (const stage of staged.values()) rmSync(stage, { recursive: true, force: true });
    for (const dir of created) rmSync(dir, { recursive: true, force: true });
    if (error instanceof ForkError) throw error;
    throw new ForkError('unwritable', `cannot write beside ${forkPath} (${describe(error)}); nothing was written`);
  }
  const sessionFolder = sessionFolderOf(forkPath);
  return { sidecarDir: created.includes(sessionFolder) ? sessionFolder : null, created, repaired };
}

function makeDir(dir: string, recursive: boolean): void {
  try {
    mkdirSync(dir, { recursive });
  } catch (error) {
    throw new ForkError('unwritable', `cannot create ${dir} (${describe(error)}); nothing was written`);
  }
}

/** The permission bits of a file (a fork and its side files get their originals'). */
export function modeOf(path: string): number {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return 0o600;
  }
}

/** `<config>/file-history`, where a session's checkpoint folder is created, when the session has one. */
function fileHistoryParentOf(sessionPath: string): string | null {
  const folder = fileHistoryFolderOf(sessionPath);
  return folder ? dirname(folder) : null;
}

/**
 * Before writing: removes what earlier Glassbox processes that died mid-write left in these folders
 * and in the archive, and the manifest of a fork whose write was interrupted (older builds wrote it
 * before the fork).
 */
export function sweepInterrupted(archive: Archive, dirs: readonly (string | null)[]): void {
  for (const dir of dirs) if (dir) sweepLeftovers(dir, { interruptedFork: (id, path) => archive.dropInterrupted(id, path) });
  archive.sweep();
}

function rollback(archive: Archive, forkId: string, forkPath: string, created: readonly string[]): void {
  safeUnlink(forkPath);
  archive.removeManifest(forkId);
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
}
