import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { agentForFile } from '@glassbox/file-io';
import { sha256Hex } from '../fork/archive';
import { KeepError } from './errors';
import { keepSession, type KeepOptions } from './keep';
import { KeptArchive } from './kept-archive';
import { filesOf } from './manifest';
import { readRegular, type Skipped } from './read-safely';

export interface MoveResult {
  key: string;
  /** The kept version that holds the files now. */
  version: string;
  sessionId: string;
  /** Every file removed from disk (the transcript first). */
  removed: string[];
}

/**
 * Moves a session into the archive: keeps it (transcript and every side file, as `keep` does), checks
 * that each file on disk still has the very bytes kept, marks the kept session as removed on purpose
 * (so no read-only copy of it is listed as "original gone"), then deletes the files: the transcript
 * first, then its side files and the folders they leave empty. Nothing is deleted when any file could
 * not be kept or changed meanwhile. `glassbox restore` writes it back.
 */
export function moveIntoArchive(sessionPath: string, options: KeepOptions & { reason: string }): MoveResult {
  const path = resolve(sessionPath);
  const kept = keepSession(path, options);
  if (kept.skipped.length > 0) {
    throw new KeepError('source_unreadable', `${describeSkipped(kept.skipped)}: it could not be kept, so nothing was removed`);
  }
  const archive = new KeptArchive(options.archiveDir);
  const session = archive.session(kept.key);
  const version = session?.versions.at(-1)?.name;
  if (!session || !version) throw new KeepError('archive_corrupt', `${path} was kept but its kept version cannot be read back; nothing was removed`);
  const layout = agentForFile(options.agents, path).locator.retention?.layoutOf(path).parts ?? [];
  const onDisk = filesOf(session.latest).map((f) => {
    if (f.part === null) return { path, file: f.file };
    const part = layout.find((p) => p.name === f.part);
    if (!part) throw new KeepError('untrusted', `${path}: its kept part ${f.part} has no place here; nothing was removed`);
    return { path: f.kind === 'folder' ? join(part.path, ...f.file.rel.split('/')) : part.path, file: f.file };
  });
  // Every file checked before any is deleted: one appended to since it was kept stays, and so does the rest.
  for (const f of onDisk) {
    const skipped: Skipped[] = [];
    const read = readRegular(f.path, skipped);
    if (!read || sha256Hex(read.bytes) !== f.file.sha256) {
      throw new KeepError('busy', `${f.path} changed while it was kept (is the session open in its client?); nothing was removed`);
    }
  }
  archive.noteRemoved(kept.key, { path, removedAt: (options.now?.() ?? new Date()).toISOString(), reason: options.reason });
  const removed: string[] = [];
  for (const f of onDisk) {
    unlinkSync(f.path);
    removed.push(f.path);
  }
  for (const part of layout.filter((p) => p.kind === 'folder')) removeEmptyBelow(part.path, removed);
  return { key: kept.key, version, sessionId: kept.sessionId, removed };
}

/** Removes the folders a part's files left empty, deepest first, never above the part's own folder. */
function removeEmptyBelow(top: string, removedFiles: readonly string[]): void {
  const folders = new Set<string>();
  for (const file of removedFiles) {
    if (!file.startsWith(top + sep)) continue;
    for (let d = dirname(file); d.startsWith(top); d = dirname(d)) {
      folders.add(d);
      if (d === top) break;
    }
  }
  for (const d of [...folders].sort((a, b) => relative(top, b).length - relative(top, a).length)) {
    try {
      if (readdirSync(d).length === 0) rmdirSync(d);
    } catch {
      // Gone already, or something else lives there: it stays.
    }
  }
}

function describeSkipped(skipped: readonly Skipped[]): string {
  const first = skipped[0] as Skipped;
  return `${first.path} ${first.reason}${skipped.length > 1 ? ` (and ${skipped.length - 1} more)` : ''}`;
}
