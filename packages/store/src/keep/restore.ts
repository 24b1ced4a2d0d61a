import { lstatSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import type { AgentRegistry } from '@glassbox/core';
import { sha256Hex } from '../fork/archive';
import { safeUnlink, writeNewFileAtomic } from '../shared/atomic';
import { sweepLeftovers } from '../fork/leftovers';
import { assemble } from './assemble';
import { keepSession } from './keep';
import { KeepError, errorCode } from './errors';
import { entryExists } from './entry-exists';
import { KeptArchive, type KeptSession } from './kept-archive';
import type { KeptManifest } from './manifest';
import { landedInPlace, linkOnTheWay, untrustedManifest } from './trust';

export interface RestoreOptions {
  archiveDir: string;
  agents: AgentRegistry;
  /** A version name from `glassbox archive` (default: the newest). */
  version?: string;
  /** The agents' session folders on this machine (default: each agent's roots for this process's environment): a manifest's path must lie in one. */
  roots?: readonly string[];
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
  const roots = options.roots ?? options.agents.roots(process.env, homedir()).filter((r) => r.agent.format.id === m.agent).map((r) => r.root);
  const trusted = untrustedManifest(m, options.agents, roots);
  if ('problem' in trusted) throw new KeepError('untrusted', `the kept manifest cannot be trusted: ${trusted.problem}; nothing was written`);
  // Below its session folder (or, for checkpoint backups, its configuration folder) no part of a path may be a link.
  const baseOf = (path: string): string | null => [trusted.root, m.original.configFolder].find((b): b is string => b !== null && path.startsWith(resolve(b) + sep)) ?? null;
  const refuseLinks = (path: string): void => {
    const base = baseOf(path);
    const link = base ? linkOnTheWay(base, path) : path;
    if (link) throw new KeepError('untrusted', `${link} is ${base ? 'a link (or a file where a folder should be)' : 'outside the session\'s folders'}: a restore never writes through a link or outside them, so nothing was written`);
  };
  refuseLinks(target);
  if (entryExists(target)) {
    throw new KeepError('exists', `${target} is there: a restore never writes over a file. It was left as it was and nothing was written.`);
  }
  const retention = options.agents.byId(m.agent).locator.retention;
  const plan: Planned[] = [];
  const alreadyThere: string[] = [];
  const notPlaced: string[] = [];
  for (const part of m.parts) {
    const place = retention?.placeOf(target, part.name, m.sessionId) ?? null;
    if (!place || place.kind !== part.kind) {
      notPlaced.push(part.name);
      continue;
    }
    for (const f of part.files) {
      const path = part.kind === 'folder' ? join(place.path, ...f.rel.split('/')) : place.path;
      refuseLinks(path);
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
      refuseLinks(p.path);
      makeDirs(dirname(p.path), madeDirs);
      writeNewFileAtomic(p.path, p.bytes, p.mode);
      created.push(p.path);
      // Checked again once written: a link put in place meanwhile is found, and what was written removed.
      const base = baseOf(p.path);
      if (!base || !landedInPlace(base, p.path)) throw new KeepError('untrusted', `${dirname(p.path)} turned out to lead elsewhere (a link put in its path while the restore ran); what was written was removed`);
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
  archive.clearRemoved(kept.key);
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
