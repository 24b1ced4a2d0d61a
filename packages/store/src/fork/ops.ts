import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { AgentFormat, AgentRegistry, ValidationReport } from '@glassbox/core';
import { agentForFile } from '@glassbox/file-io';
import { Archive, archiveDir, sha256Hex } from './archive';
import { ForkError } from '../shared/atomic';
import { SourceMoved, forkPass, indexPass } from './fork-pass';
import type { ForkJob } from './job';
import { ExactLineReader, hashFile } from './lines';
import type { ForkManifest } from './manifest';
import { LineOutput } from './output';
import { prepareOne } from './sidecars';
import { commit, modeOf, sweepInterrupted } from './writer';
import { makeFolders, namingOf, removeEmptyFolders, sessionIdOfName } from './naming';

export interface ArchiveOptions {
  /** The agents forks are made of: their formats validate, their naming rules check a manifest's paths. */
  agents: AgentRegistry;
  archiveDir?: string;
  env?: NodeJS.ProcessEnv;
}

function open(options: ArchiveOptions): Archive {
  return new Archive(archiveDir(options.env ?? process.env, options.archiveDir));
}

/**
 * A fork named by its id or by the path of its file: an existing session file gives the id its agent
 * reads in it (Gemini CLI's name holds only a short id); a name of an agent's kind that is not here
 * gives the id in the name (`<id>.jsonl`, Codex's `rollout-<time>-<id>.jsonl`).
 */
export function forkIdOf(ref: string, agents?: AgentRegistry): string {
  if (agents && isSessionFile(ref, agents)) return agentForFile(agents, ref).locator.describe(ref).sessionId;
  return ref.endsWith('.jsonl') ? sessionIdOfName(ref) : basename(ref);
}

function isSessionFile(ref: string, agents: AgentRegistry): boolean {
  return agents.isSessionFileName(basename(ref)) && existsSync(ref);
}

export function loadManifest(ref: string, options: ArchiveOptions): { archive: Archive; manifest: ForkManifest } {
  const archive = open(options);
  return { archive, manifest: archive.getManifest(forkIdOf(ref, options.agents), options.agents) };
}

export interface VerifyResult {
  manifest: ForkManifest;
  report: ValidationReport;
  /** The fork on disk is byte-identical to what was written. */
  unchanged: boolean;
  /** Lines appended after the fork was written (Claude Code appends when it is resumed); validated without them. */
  appendedLines: number;
  /** The original file is still there and still has the archived bytes. */
  originalOnDisk: 'identical' | 'changed' | 'missing';
}

/**
 * Re-runs the validation of a fork against its archived original (hash-checked), both streamed side
 * by side: neither file is held.
 */
export function verifyFork(ref: string, options: ArchiveOptions & { job?: ForkJob }): VerifyResult {
  const { archive, manifest } = loadManifest(ref, options);
  const sha = manifest.original.sha256;
  const originalFile = archive.objectFile(sha);
  const path = isSessionFile(ref, options.agents) ? ref : manifest.forkPath;
  const format = agentForFile(options.agents, originalFile).format;
  const validator = format.createForkValidator();
  const original = new ExactLineReader(originalFile, undefined, options.job, 'checking the fork', true);
  let fork: ExactLineReader;
  try {
    fork = new ExactLineReader(path);
  } catch (error) {
    original.close();
    throw error;
  }
  const hash = createHash('sha256');
  const n = manifest.fork.lines;
  let last: string | null = null;
  let forkLines = 0;
  let originalPass;
  try {
    for (let line = 1; ; line++) {
      const o = original.next();
      const f = line <= n ? fork.next() : null;
      if (f !== null) {
        forkLines++;
        if (last !== null) hash.update(last + '\n');
        last = f;
      }
      if (o === null && f === null) break;
      validator.pair(o ?? undefined, f ?? undefined, line);
    }
    while (fork.next() !== null) forkLines++;
    originalPass = original.finish();
    fork.finish();
  } catch (error) {
    original.close();
    fork.close();
    throw error;
  }
  archive.checkRead(sha, originalPass.sha256 ?? '');
  const appendedLines = Math.max(0, forkLines - n);
  if (last !== null) hash.update(originalPass.endsWithNewline || appendedLines > 0 ? last + '\n' : last);
  const unchanged = hash.digest('hex') === manifest.fork.sha256;
  const report = validator.finish();
  let originalOnDisk: VerifyResult['originalOnDisk'] = 'missing';
  if (existsSync(manifest.original.path)) {
    try {
      originalOnDisk = hashFile(manifest.original.path, options.job) === sha ? 'identical' : 'changed';
    } catch (error) {
      if (error instanceof ForkError && error.code === 'cancelled') throw error;
      originalOnDisk = 'missing';
    }
  }
  return { manifest, report, unchanged, appendedLines, originalOnDisk };
}

export interface ShownSegment {
  segmentId: string;
  /** Where it was in the record, e.g. `message.content[1].content`. */
  path: string;
  sha256: string;
  text: string;
  tombstone?: string;
}

/**
 * An evicted payload, back from the archive: by segment id (`<uuid>:<block>` or `<uuid>:input`, as
 * `inspect` prints them), by a record uuid, or by a sha-256 prefix (the one a tombstone shows).
 */
export function showSegment(ref: string, segment: string, options: ArchiveOptions): ShownSegment[] {
  const { archive, manifest } = loadManifest(ref, options);
  const wanted = segment.trim();
  const hits = manifest.actions.filter(
    (a) =>
      a.segmentId === wanted ||
      a.uuid === wanted ||
      `${a.uuid}:${a.blockIndex}` === wanted ||
      a.removed.some((r) => r.sha256.startsWith(wanted.toLowerCase())) ||
      (wanted.length >= 6 && a.elision?.sha256.startsWith(wanted.toLowerCase()) === true),
  );
  if (hits.length === 0) {
    throw new ForkError(
      'segment_not_found',
      `fork ${manifest.forkId} evicted no segment ${wanted}; it evicted ${manifest.actions.length}: ${manifest.actions.slice(0, 5).map((a) => a.segmentId).join(', ')}${manifest.actions.length > 5 ? ', …' : ''}`,
    );
  }
  const out: ShownSegment[] = [];
  for (const a of hits) {
    // An elision: the middle the fork left out (its head and tail are still in the fork).
    if (a.elision) {
      out.push({ segmentId: a.segmentId, path: 'elided middle', sha256: a.elision.sha256, text: archive.get(a.elision.sha256).toString('utf8'), tombstone: a.tombstone });
      continue;
    }
    for (const r of a.removed.filter((x) => x.sentToModel)) {
      out.push({ segmentId: a.segmentId, path: r.path, sha256: r.sha256, text: archive.get(r.sha256).toString('utf8'), tombstone: a.tombstone });
    }
  }
  return out;
}

export interface UndoResult {
  sessionId: string;
  path: string;
  sidecarDir: string | null;
  manifest: ForkManifest;
  report: ValidationReport;
}

/**
 * Writes the archived original of a fork back as a NEW sibling session (new id, same project folder
 * as the fork), with its subagent and tool-result files; never over any file. The archived original
 * is streamed (hash-checked before anything is written, and again as it is copied).
 */
export function undoFork(ref: string, options: ArchiveOptions & { newSessionId?: string; now?: () => Date; job?: ForkJob }): UndoResult {
  const { archive, manifest } = loadManifest(ref, options);
  const sha = manifest.original.sha256;
  const originalFile = archive.objectFile(sha);
  // Check every sidecar object before writing anything.
  const sidecarBytes = manifest.sidecars.map((s) => ({ rel: s.rel, bytes: archive.get(s.originalSha256) }));
  const agent = agentForFile(options.agents, originalFile);
  const format = agent.format;
  // Named and placed as the fork was (naming.ts): the client resumes the restored session by its id.
  const naming = namingOf(agent);
  const now = options.now?.() ?? new Date();
  const id = options.newSessionId ?? naming.newSessionId(now);
  const path = naming.pathFor(manifest.forkPath, id, now);
  const dir = dirname(path);
  const madeFolders = makeFolders(dir);
  try {
    return restoreInto(archive, manifest, { id, path, now, format, sidecarBytes, originalFile, sha, job: options.job, folders: agent.locator.sideFiles?.folders(path, id) ?? [] });
  } catch (error) {
    removeEmptyFolders(madeFolders);
    throw error;
  }
}

interface RestoreTarget {
  id: string;
  path: string;
  now: Date;
  format: AgentFormat;
  sidecarBytes: { rel: string; bytes: Buffer }[];
  originalFile: string;
  sha: string;
  job: ForkJob | undefined;
  /** The agent's side folders of the restored session, when it keeps them apart (Gemini CLI). */
  folders: readonly { name: string; path: string }[];
}

function restoreInto(archive: Archive, manifest: ForkManifest, t: RestoreTarget): UndoResult {
  const { id, path, format, sidecarBytes, originalFile, sha, job } = t;
  sweepInterrupted(archive, [dirname(path)]);
  // The original's permission bits when the manifest has them (older ones: the fork's).
  const mode = manifest.original.mode ?? modeOf(manifest.forkPath);
  const indexed = indexPass(format, originalFile, [], id, { sha256: true, ...(job ? { job } : {}) });
  archive.checkRead(sha, indexed.pass.sha256 ?? '');
  const output = new LineOutput(path, mode);
  let run;
  let restored: { sha256: string; bytes: number };
  try {
    run = forkPass(format, originalFile, indexed, { output, validateActions: false, ...(job ? { job } : {}) });
    restored = output.close();
  } catch (error) {
    output.discard();
    if (error instanceof SourceMoved) throw new ForkError('archive_corrupt', `archive object ${originalFile} changed while it was read; nothing was written`);
    throw error;
  }
  const report = run.report;
  if (!report.ok) {
    output.discard();
    throw new ForkError('invalid', `the restored session did not validate (${report.checks.filter((c) => !c.ok).map((c) => c.id).join(', ')}); nothing was written`);
  }
  let sidecars;
  try {
    sidecars = sidecarBytes.map((s) => prepareOne(format, `archive:${s.rel}`, s.rel, id, s.bytes, mode));
  } catch (error) {
    output.discard();
    throw error;
  }
  const undoManifest: ForkManifest = {
    version: 1,
    kind: 'undo',
    forkId: id,
    forkPath: path,
    createdAt: t.now.toISOString(),
    cwd: manifest.cwd,
    original: { ...manifest.original, mode },
    fork: { sha256: restored.sha256, bytes: restored.bytes, lines: run.source.lines },
    sidecars: sidecars.map((s) => ({ rel: s.rel, originalSha256: sha256Hex(s.original), forkSha256: sha256Hex(s.fork), sessionIdRewritten: s.sessionIdRewritten })),
    actions: [],
    totals: { tokensFreed: 0, tombstoneTokens: 0, bytesRemoved: 0 },
    restoredFrom: manifest.forkId,
  };
  const written = commit(archive, undoManifest, path, output.temp, sidecars, [], null, undefined, t.folders);
  return { sessionId: id, path, sidecarDir: written.sidecarDir, manifest: undoManifest, report };
}
