import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  buildFork,
  validateFork,
  type AppliedAction,
  type ForkAction,
  type RefusedAction,
  type ValidationReport,
} from '@glassbox/adapter-claude-code';
import { Archive, archiveDir, sha256Hex } from './archive';
import { ForkError, describe, fsyncDir, publishTemp, safeUnlink, tempPathFor, writeTempFile } from './atomic';
import { sweepLeftovers } from './leftovers';
import type { ForkManifest, ManifestAction } from './manifest';
import { fileHistoryFolderOf, prepareSidecars, sessionFolderOf, sidecarTarget, type SidecarFile } from './sidecars';
import { joinLines, readReadOnly, readSource, type SourceSnapshot } from './source';
import { isInKeptView } from '../keep/view';

/** An action as a plan names it; the extra fields go into the manifest. */
export type PlanAction = ForkAction & { class?: string; tokensFreed?: number; tombstoneTokens?: number };

export interface WriteForkOptions {
  sourcePath: string;
  /**
   * Plans the fork from the exact lines that will be forked. Called again if the source changes
   * while the fork is prepared, so the plan always matches the bytes.
   */
  prepare: (source: SourceSnapshot) => { actions: PlanAction[]; cwd?: string | null };
  archiveDir?: string;
  env?: NodeJS.ProcessEnv;
  /** The fork's session id (a new random uuid by default). */
  newSessionId?: string;
  /** Copy `<session>/subagents/` and `<session>/tool-results/` into the fork's folder (default true). */
  carrySidecars?: boolean;
  /** Called after the fork is prepared, before the source is hashed again: lets tests play a live session. */
  beforeCommit?: (attempt: number) => void;
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
      /** sha-256 of the original before and after: equal, or the fork would not have been kept. */
      originalSha256: { before: string; after: string };
      attempts: number;
      repairedArchiveObjects: number;
    }
  | { status: 'refused'; report: ValidationReport; applied: AppliedAction[]; refused: RefusedAction[]; forkId: string };

interface Prepared {
  source: SourceSnapshot;
  forkText: string;
  report: ValidationReport;
  applied: AppliedAction[];
  refused: RefusedAction[];
  cwd: string | null;
  sidecars: SidecarFile[];
}

const MAX_ATTEMPTS = 2;

/**
 * Writes a cleaned sibling of a session. The original is only read (through read-only descriptors)
 * and hashed before and after; the fork is validated against it before anything is written; the
 * original's bytes go into the content-addressed archive first; then the carried-over
 * subagent/tool-result files and the fork are written under temporary names, given their final
 * names (never over an existing file or folder), and last the manifest: a manifest always has its
 * fork. The fork and its side files take their originals' permission bits. If the source changes
 * meanwhile (a live session appending), the whole preparation starts again once, then the fork is
 * refused. Anything created by a failed attempt is removed, and what a process killed mid-write left
 * (its temporary files, an older build's manifest written before its fork) is removed by the next run.
 *
 * Why the manifest is a sidecar in the archive and not part of the fork: the fork must stay a plain
 * Claude Code transcript that differs from its original only in payloads and session id (that is
 * what the validator and the real client's resume check), and Claude Code appends to it when it is
 * resumed; the archive is Glassbox's own place, keyed by the fork id, so `verify`, `show` and `undo`
 * find the original's hash, its path and every removed payload from the fork id alone.
 */
export function writeFork(given: WriteForkOptions): WriteForkResult {
  // The manifest records absolute paths (verify and undo check that they are).
  const options = { ...given, sourcePath: resolve(given.sourcePath) };
  if (isInKeptView(options.sourcePath)) {
    throw new ForkError('invalid', `${options.sourcePath} is Glassbox's read-only copy of a kept session whose original is gone: restore it first (glassbox restore <session>), then fork the restored session`);
  }
  const archive = new Archive(archiveDir(options.env ?? process.env, options.archiveDir));
  const forkId = options.newSessionId ?? randomUUID();
  const dir = dirname(options.sourcePath);
  const forkPath = join(dir, `${forkId}.jsonl`);
  sweepInterrupted(archive, [dir, fileHistoryParentOf(options.sourcePath)]);
  const mode = modeOf(options.sourcePath);
  for (let attempt = 1; ; attempt++) {
    const p = prepare(options, forkId);
    if (!p.report.ok) return { status: 'refused', report: p.report, applied: p.applied, refused: p.refused, forkId };
    if (p.applied.length === 0) {
      throw new ForkError('nothing_to_do', `nothing in ${options.sourcePath} can be tombstoned with this plan; no fork was written`);
    }
    options.beforeCommit?.(attempt);
    if (sha256Hex(readReadOnly(options.sourcePath)) !== p.source.sha256) {
      if (attempt < MAX_ATTEMPTS) continue;
      throw sourceChanged(options.sourcePath, attempt);
    }
    const manifest = manifestFor(p, options, forkId, forkPath, mode);
    const payloads = p.applied.flatMap((a) => a.removed.map((r) => r.text));
    const written = commit(archive, manifest, forkPath, Buffer.from(p.forkText, 'utf8'), mode, p.sidecars, [p.source.bytes, ...payloads]);
    const after = sha256Hex(readReadOnly(options.sourcePath));
    if (after !== p.source.sha256) {
      // The source moved while the fork was being written: the fork no longer matches it.
      rollback(archive, manifest.forkId, forkPath, written.created);
      if (attempt < MAX_ATTEMPTS) continue;
      throw sourceChanged(options.sourcePath, attempt);
    }
    // Read back what landed on disk: the very bytes that were validated, or the fork is removed.
    if (sha256Hex(readReadOnly(forkPath)) !== manifest.fork.sha256) {
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
      report: p.report,
      applied: p.applied,
      refused: p.refused,
      originalSha256: { before: p.source.sha256, after },
      attempts: attempt,
      repairedArchiveObjects: written.repaired,
    };
  }
}

function sourceChanged(path: string, attempts: number): ForkError {
  return new ForkError(
    'source_changed',
    `${path} changed while the fork was being prepared (${attempts} attempts): the session is probably still running. ` +
      'Nothing was written; try again when it is idle.',
  );
}

function prepare(options: WriteForkOptions, forkId: string): Prepared {
  const source = readSource(options.sourcePath);
  const plan = options.prepare(source);
  const fork = buildFork(source.lines, plan.actions, forkId);
  const report = validateFork(source.lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
  const sidecars = options.carrySidecars === false ? [] : prepareSidecars(options.sourcePath, forkId);
  return {
    source,
    forkText: joinLines(fork.lines, source.endsWithNewline),
    report,
    applied: fork.applied,
    refused: fork.refused,
    cwd: plan.cwd ?? null,
    sidecars,
  };
}

function manifestFor(p: Prepared, options: WriteForkOptions, forkId: string, forkPath: string, mode: number): ForkManifest {
  const forkBytes = Buffer.byteLength(p.forkText, 'utf8');
  const actions: ManifestAction[] = p.applied.map((a) => {
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
    return m;
  });
  const originalSessionId = p.report.original.sessionId ?? basename(options.sourcePath, '.jsonl');
  return {
    version: 1,
    kind: 'clean',
    forkId,
    forkPath,
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    cwd: p.cwd,
    original: { path: options.sourcePath, sessionId: originalSessionId, sha256: p.source.sha256, bytes: p.source.bytes.length, lines: p.source.lines.length, mode },
    fork: { sha256: sha256Hex(p.forkText), bytes: forkBytes, lines: p.source.lines.length },
    sidecars: p.sidecars.map((s) => ({ rel: s.rel, originalSha256: sha256Hex(s.original), forkSha256: sha256Hex(s.fork), sessionIdRewritten: s.sessionIdRewritten })),
    actions,
    totals: {
      tokensFreed: p.applied.reduce((n, a) => n + ((a.action as PlanAction).tokensFreed ?? 0), 0),
      tombstoneTokens: p.applied.reduce((n, a) => n + ((a.action as PlanAction).tombstoneTokens ?? 0), 0),
      bytesRemoved: p.applied.reduce((n, a) => n + a.bytesBefore - a.bytesAfter, 0),
    },
  };
}

/**
 * Archives the original (and every removed payload and sidecar original); writes every new folder
 * (the fork's session folder, its checkpoint folder) under a temporary name beside its final one and
 * the fork to a temporary file; then gives the folders and the fork their names, never over anything
 * that exists, and writes the manifest last. On failure removes what this call created; if the process
 * dies, only temporary names (and archive objects) are left, which the next run removes.
 */
export function commit(
  archive: Archive,
  manifest: ForkManifest,
  forkPath: string,
  forkBytes: Buffer,
  forkMode: number,
  sidecars: readonly SidecarFile[],
  archiveFirst: readonly (Buffer | string)[] = [],
): { sidecarDir: string | null; created: string[]; repaired: number } {
  let repaired = 0;
  for (const obj of archiveFirst) if (archive.put(obj).repaired) repaired++;
  for (const s of sidecars) if (archive.put(s.original).repaired) repaired++;
  const staged = new Map<string, string>();
  const created: string[] = [];
  let forkTemp: string | null = null;
  let forkNamed = false;
  try {
    for (const s of sidecars) {
      const { folder, path } = sidecarTarget(forkPath, s.rel);
      let temp = staged.get(folder);
      if (!temp) {
        if (existsSync(folder)) throw new ForkError('exists', `${folder} already exists; it was left as it was and nothing was written`);
        temp = tempPathFor(folder);
        makeDir(dirname(folder), true);
        makeDir(temp, false);
        staged.set(folder, temp);
      }
      const target = join(temp, relative(folder, path));
      makeDir(dirname(target), true);
      publishTemp(writeTempFile(target, s.fork, s.mode), target);
    }
    forkTemp = writeTempFile(forkPath, forkBytes, forkMode);
    for (const [folder, temp] of staged) {
      if (existsSync(folder)) throw new ForkError('exists', `${folder} already exists; it was left as it was and nothing was written`);
      renameSync(temp, folder);
      staged.delete(folder);
      created.push(folder);
      fsyncDir(dirname(folder));
    }
    publishTemp(forkTemp, forkPath);
    forkTemp = null;
    forkNamed = true;
    archive.putManifest(manifest);
  } catch (error) {
    if (forkTemp) safeUnlink(forkTemp);
    if (forkNamed) safeUnlink(forkPath);
    for (const temp of staged.values()) rmSync(temp, { recursive: true, force: true });
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
