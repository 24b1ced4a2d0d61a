import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { buildFork, validateFork, type ValidationReport } from '@glassbox/adapter-claude-code';
import { Archive, archiveDir, sha256Hex } from './archive';
import { ForkError } from './atomic';
import type { ForkManifest } from './manifest';
import { prepareOne } from './sidecars';
import { joinLines, readSource, snapshotOf } from './source';
import { commit, modeOf, sweepInterrupted } from './writer';

export interface ArchiveOptions {
  archiveDir?: string;
  env?: NodeJS.ProcessEnv;
}

function open(options: ArchiveOptions): Archive {
  return new Archive(archiveDir(options.env ?? process.env, options.archiveDir));
}

/** A fork named by its id or by the path of its file. */
export function forkIdOf(ref: string): string {
  return basename(ref).replace(/\.jsonl$/i, '');
}

export function loadManifest(ref: string, options: ArchiveOptions = {}): { archive: Archive; manifest: ForkManifest } {
  const archive = open(options);
  return { archive, manifest: archive.getManifest(forkIdOf(ref)) };
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

/** Re-runs the validation of a fork against its archived original (hash-checked). */
export function verifyFork(ref: string, options: ArchiveOptions = {}): VerifyResult {
  const { archive, manifest } = loadManifest(ref, options);
  const original = snapshotOf(`archive:${manifest.original.sha256}`, archive.get(manifest.original.sha256));
  const path = ref.endsWith('.jsonl') && existsSync(ref) ? ref : manifest.forkPath;
  const fork = readSource(path);
  const written = fork.lines.slice(0, manifest.fork.lines);
  const appendedLines = Math.max(0, fork.lines.length - manifest.fork.lines);
  const unchanged = sha256Hex(joinLines(written, original.endsWithNewline || appendedLines > 0)) === manifest.fork.sha256;
  const report = validateFork(original.lines, written);
  let originalOnDisk: VerifyResult['originalOnDisk'] = 'missing';
  if (existsSync(manifest.original.path)) {
    try {
      originalOnDisk = readSource(manifest.original.path).sha256 === manifest.original.sha256 ? 'identical' : 'changed';
    } catch {
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
export function showSegment(ref: string, segment: string, options: ArchiveOptions = {}): ShownSegment[] {
  const { archive, manifest } = loadManifest(ref, options);
  const wanted = segment.trim();
  const hits = manifest.actions.filter(
    (a) => a.segmentId === wanted || a.uuid === wanted || `${a.uuid}:${a.blockIndex}` === wanted || a.removed.some((r) => r.sha256.startsWith(wanted.toLowerCase())),
  );
  if (hits.length === 0) {
    throw new ForkError(
      'segment_not_found',
      `fork ${manifest.forkId} evicted no segment ${wanted}; it evicted ${manifest.actions.length}: ${manifest.actions.slice(0, 5).map((a) => a.segmentId).join(', ')}${manifest.actions.length > 5 ? ', …' : ''}`,
    );
  }
  const out: ShownSegment[] = [];
  for (const a of hits) {
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
 * as the fork), with its subagent and tool-result files; never over any file.
 */
export function undoFork(ref: string, options: ArchiveOptions & { newSessionId?: string; now?: () => Date } = {}): UndoResult {
  const { archive, manifest } = loadManifest(ref, options);
  const original = snapshotOf(`archive:${manifest.original.sha256}`, archive.get(manifest.original.sha256));
  // Check every sidecar object before writing anything.
  const sidecarBytes = manifest.sidecars.map((s) => ({ rel: s.rel, bytes: archive.get(s.originalSha256) }));
  const id = options.newSessionId ?? randomUUID();
  const dir = dirname(manifest.forkPath);
  const path = join(dir, `${id}.jsonl`);
  sweepInterrupted(archive, [dir]);
  // The original's permission bits when the manifest has them (older ones: the fork's).
  const mode = manifest.original.mode ?? modeOf(manifest.forkPath);
  const restored = buildFork(original.lines, [], id);
  const report = validateFork(original.lines, restored.lines);
  if (!report.ok) {
    throw new ForkError('invalid', `the restored session did not validate (${report.checks.filter((c) => !c.ok).map((c) => c.id).join(', ')}); nothing was written`);
  }
  const text = joinLines(restored.lines, original.endsWithNewline);
  const sidecars = sidecarBytes.map((s) => prepareOne(`archive:${s.rel}`, s.rel, id, s.bytes, mode));
  const undoManifest: ForkManifest = {
    version: 1,
    kind: 'undo',
    forkId: id,
    forkPath: path,
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    cwd: manifest.cwd,
    original: { ...manifest.original, mode },
    fork: { sha256: sha256Hex(text), bytes: Buffer.byteLength(text, 'utf8'), lines: restored.lines.length },
    sidecars: sidecars.map((s) => ({ rel: s.rel, originalSha256: sha256Hex(s.original), forkSha256: sha256Hex(s.fork), sessionIdRewritten: s.sessionIdRewritten })),
    actions: [],
    totals: { tokensFreed: 0, tombstoneTokens: 0, bytesRemoved: 0 },
    restoredFrom: manifest.forkId,
  };
  const written = commit(archive, undoManifest, path, Buffer.from(text, 'utf8'), mode, sidecars);
  return { sessionId: id, path, sidecarDir: written.sidecarDir, manifest: undoManifest, report };
}
