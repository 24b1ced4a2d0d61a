import { lstatSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentRegistry } from '@glassbox/core';
import { sha256Hex } from '../fork/archive';
import { safeUnlink, writeNewFileAtomic } from '../fork/atomic';
import { sweepLeftovers } from '../fork/leftovers';
import { assemble } from './assemble';
import { keepSession } from './keep';
import { KeepError, errorCode } from './errors';
import { entryExists } from './entry-exists';
import { KeptArchive, type KeptSession } from './kept-archive';
import type { KeptManifest } from './manifest';

export interface RestoreOptions {
  archiveDir: string;
  agents: AgentRegistry;
  /** A version name from `glassbox archive` (default: the newest). */
  version?: string;
}

export interface RestoreResult {
  path: string;
  sessionId: string;
  manifest: KeptManifest;
  /** Files written (the transcript last), and side files already there with the same bytes. */
  written: string[];
  alreadyThere: string[];
  /** Parts the agent no longer knows where to put, left in the archive. */
  notPlaced: string[];
}

interface Planned {
  path: string;
  bytes: Buffer;
  mode: number;
}

/**
 * Writes a kept session back where it was, as a session its client can resume: every file assembled
 * and hash-checked before anything is written, side files first and the transcript last, each created
 * new (never over a file: a transcript already there refuses the restore; a side file already there
 * must have the very bytes kept, or the restore is refused). The restored files are new files, so the
 * client counts its clean-up period from now; they are kept again as they are. On any failure what this
 * call created is removed.
 */
export function restoreSession(kept: KeptSession, options: RestoreOptions): RestoreResult {
  const archive = new KeptArchive(options.archiveDir);
  const version = options.version ?? kept.versions.at(-1)?.name;
  if (!version || !kept.versions.some((v) => v.name === version)) {
    throw new KeepError('not_kept', `${kept.latest.sessionId} has no kept version ${options.version ?? ''}; its versions: ${kept.versions.map((v) => v.name.replace(/\.json$/, '')).join(', ')}`);
  }
  const m = version === kept.versions.at(-1)?.name ? kept.latest : archive.read(kept.key, version);
  const target = m.original.path;
  if (entryExists(target)) {
    throw new KeepError('exists', `${target} is there: a restore never writes over a file. It was left as it was and nothing was written.`);
  }
  const retention = options.agents.byId(m.agent).locator.retention;
  const plan: Planned[] = [];
  const alreadyThere: string[] = [];
  const notPlaced: string[] = [];
  for (const part of m.parts) {
    const place = retention?.placeOf(target, part.name) ?? null;
    if (!place || place.kind !== part.kind) {
      notPlaced.push(part.name);
      continue;
    }
    for (const f of part.files) {
      const path = part.kind === 'folder' ? join(place.path, ...f.rel.split('/')) : place.path;
      const bytes = assemble(archive, f, path);
      if (entryExists(path)) {
        if (sameBytes(path, f.sha256)) alreadyThere.push(path);
        else throw new KeepError('exists', `${path} is there with other bytes than the kept copy: a restore never writes over a file, so nothing was written.`);
        continue;
      }
      plan.push({ path, bytes, mode: f.mode });
    }
  }
  plan.push({ path: target, bytes: assemble(archive, m.transcript, target), mode: m.transcript.mode });

  const created: string[] = [];
  const madeDirs: string[] = [];
  try {
    for (const dir of new Set(plan.map((p) => dirname(p.path)))) sweepLeftovers(dir);
    for (const p of plan) {
      makeDirs(dirname(p.path), madeDirs);
      writeNewFileAtomic(p.path, p.bytes, p.mode);
      created.push(p.path);
    }
    if (sha256Hex(readFileSync(target)) !== m.transcript.sha256) throw new KeepError('unwritable', `${target} did not read back as written; it was removed`);
  } catch (error) {
    for (const p of created.reverse()) safeUnlink(p);
    for (const d of madeDirs.reverse()) {
      try {
        rmdirSync(d);
      } catch {
        // Not empty: something else is in it now.
      }
    }
    if (error instanceof KeepError) throw error;
    const e = error as { code?: string; message?: string };
    if (e.code === 'exists') throw new KeepError('exists', `${e.message ?? target}`);
    throw new KeepError('unwritable', `cannot write ${target} (${e.message ?? errorCode(error)}); nothing was restored`);
  }
  archive.clearGone(kept.key);
  // The restored files are new files (new modification times): kept again as they now are, the
  // archive's newest version matches them (the chunks are all there already: only a manifest is written).
  try {
    keepSession(target, { archiveDir: options.archiveDir, agents: options.agents });
  } catch {
    // The restore itself succeeded; the next keep records it.
  }
  return { path: target, sessionId: m.sessionId, manifest: m, written: created, alreadyThere, notPlaced };
}

function sameBytes(path: string, sha: string): boolean {
  try {
    return lstatSync(path).isFile() && sha256Hex(readFileSync(path)) === sha;
  } catch {
    return false;
  }
}

/** mkdir -p, remembering which folders it made (to remove them again on failure). */
function makeDirs(dir: string, made: string[]): void {
  const missing: string[] = [];
  for (let d = dir; !entryExists(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
      made.push(d);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new KeepError('unwritable', `cannot create ${d} (${errorCode(error)}); nothing was restored`);
    }
  }
}
