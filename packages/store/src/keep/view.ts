import { existsSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AgentRegistry } from '@glassbox/core';
import { sha256Hex } from '../fork/archive';
import { replaceFileAtomic } from '../shared/atomic';
import { assemble } from './assemble';
import { entryExists } from './entry-exists';
import { KeptArchive, type KeptSession } from './kept-archive';
import { makePrivateDir } from '../shared/private-folder';
import { KEPT_VIEW_MARKER as MARKER, viewDirOf, viewRootOf } from '../shared/kept-view-paths';

export { isInKeptView, viewDirOf, viewRootOf } from '../shared/kept-view-paths';

/**
 * Read-only copies of kept sessions whose originals are gone, so that everything that reads a session
 * (the list, search, inspect, xray, cost, the window) reads them as it reads any other: under
 * `<data>/kept-view/<agent>/projects/<project>/<file>`, a projects root of Glassbox's own that the index
 * lists. Each copy is assembled from hash-checked chunks and carries the original's modification time.
 * A copy exists only while its original is missing; forks are never written here (fork/writer.ts
 * refuses a source inside a view), and a restore writes the original back, not this.
 */
/** Where the view copy of a kept session goes. */
export function viewPathOf(viewDir: string, kept: KeptSession): string {
  const o = kept.latest.original;
  return join(viewRootOf(viewDir, kept.latest.agent), o.project || basename(dirname(o.path)), basename(o.path));
}

export interface ViewSync {
  /** View copies by original path, for every kept session whose original is gone. */
  copies: Map<string, string>;
  /** Every file of each copy (its transcript first, then the side files read with it), by original path. */
  copyFiles: Map<string, string[]>;
  /** Sessions whose original was seen gone for the first time in this pass. */
  newlyGone: string[];
  /** View copies removed in this pass (their originals are back, or they are no longer kept). */
  removed: string[];
  problems: string[];
}

/**
 * Brings the view in line with the archive and the disk: a copy for every kept session whose original
 * is gone (written when missing or stale), none for one whose original is back or that is no longer
 * kept. The first time an original is seen gone, the archive notes when. Only agents that name the
 * files of a session (those whose client deletes sessions) get copies.
 */
export function syncView(archiveDir: string, agents: AgentRegistry, now: () => Date = () => new Date()): ViewSync {
  const archive = new KeptArchive(archiveDir);
  const viewDir = viewDirOf(archiveDir);
  const problems: string[] = [];
  const copies = new Map<string, string>();
  const copyFiles = new Map<string, string[]>();
  const newlyGone: string[] = [];
  const wanted = new Set<string>();
  for (const kept of archive.sessions(problems)) {
    const m = kept.latest;
    if (!agents.has(m.agent) || !agents.byId(m.agent).locator.retention) continue;
    if (entryExists(m.original.path)) {
      if (kept.gone) archive.clearGone(kept.key);
      continue;
    }
    // Moved into the archive on purpose (an undone fork): not a session the client lost.
    if (kept.removed) continue;
    if (!kept.gone) {
      archive.noteGone(kept.key, { path: m.original.path, noticedAt: now().toISOString(), dueAt: m.expiresAt });
      newlyGone.push(m.original.path);
    }
    const path = viewPathOf(viewDir, kept);
    if (wanted.has(path) || copies.has(m.original.path)) {
      problems.push(`${m.original.path}: another kept session has the same project and name; only one is shown`);
      continue;
    }
    wanted.add(path);
    try {
      const files = ensureCopy(archive, agents, kept, viewDir, path, false);
      for (const p of files) wanted.add(p);
      copies.set(m.original.path, path);
      copyFiles.set(m.original.path, files);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const removed = removeUnwanted(viewDir, wanted);
  return { copies, copyFiles, newlyGone, removed, problems };
}

/**
 * The view copy of one kept session, checked byte for byte against its kept hashes (rewritten from the
 * archive when it differs): what a command that reads the session opens. Returns its path.
 */
export function ensureViewCopy(archiveDir: string, agents: AgentRegistry, kept: KeptSession): string {
  const viewDir = viewDirOf(archiveDir);
  const path = viewPathOf(viewDir, kept);
  ensureCopy(new KeptArchive(archiveDir), agents, kept, viewDir, path, true);
  return path;
}

/** Writes what is missing or stale of a view copy; `verify` also hashes what is there. Returns every file of the copy. */
function ensureCopy(archive: KeptArchive, agents: AgentRegistry, kept: KeptSession, viewDir: string, path: string, verify: boolean): string[] {
  const m = kept.latest;
  makePrivateDir(viewDir);
  if (!existsSync(join(viewDir, MARKER))) writeFileSync(join(viewDir, MARKER), 'Read-only copies of kept sessions whose originals are gone. Glassbox rewrites this folder.\n', { mode: 0o600 });
  const retention = agents.byId(m.agent).locator.retention;
  const files: { path: string; file: typeof m.transcript }[] = [{ path, file: m.transcript }];
  for (const part of m.parts) {
    const place = retention?.placeOf(path, part.name, m.sessionId);
    // Only what lives beside the transcript is read with it (subagent files); the rest stays archived.
    if (!place || place.kind !== part.kind || !place.path.startsWith(dirname(path) + '/')) continue;
    for (const f of part.files) files.push({ path: part.kind === 'folder' ? join(place.path, ...f.rel.split('/')) : place.path, file: f });
  }
  for (const { path: p, file } of files) {
    if (upToDate(p, file.bytes, file.mtimeMs) && (!verify || hashOf(p) === file.sha256)) continue;
    const bytes = assemble(archive, file, m.original.path);
    makePrivateDir(dirname(p));
    replaceFileAtomic(p, bytes);
    const t = new Date(file.mtimeMs);
    utimesSync(p, t, t);
  }
  return files.map((f) => f.path);
}

function hashOf(path: string): string | null {
  try {
    return sha256Hex(readFileSync(path));
  } catch {
    return null;
  }
}

function upToDate(path: string, bytes: number, mtimeMs: number): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && st.size === bytes && Math.abs(st.mtimeMs - mtimeMs) < 1;
  } catch {
    return false;
  }
}

/** Removes view copies (with their side folders) that no kept-and-gone session wants any more. */
function removeUnwanted(viewDir: string, wanted: Set<string>): string[] {
  const removed: string[] = [];
  let agentsDirs: string[];
  try {
    agentsDirs = readdirSync(viewDir).filter((n) => !n.startsWith('.'));
  } catch {
    return removed;
  }
  for (const agent of agentsDirs) {
    const root = viewRootOf(viewDir, agent);
    let projects: string[];
    try {
      projects = readdirSync(root);
    } catch {
      continue;
    }
    for (const project of projects) {
      const dir = join(root, project);
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names.filter((n) => n.endsWith('.jsonl'))) {
        const path = join(dir, name);
        if (wanted.has(path)) continue;
        rmSync(path, { force: true });
        rmSync(join(dir, name.replace(/\.jsonl$/, '')), { recursive: true, force: true });
        removed.push(path);
      }
    }
  }
  return removed;
}
