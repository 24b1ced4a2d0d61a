import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readWhole } from '@glassbox/file-io';
import { buildForkFromLines, validateFromLines, type AgentFormat, type SessionSideFiles } from '@glassbox/core';
import { ForkError } from '../shared/atomic';
import { sha256Hex } from './archive';
import { isSafeSideRel } from './manifest';
import { joinLines, snapshotOf } from './source';
import { openedInPlace, realFolder } from '../shared/in-place';

/** A file of `<session>/subagents/` or `<session>/tool-results/`, ready to be written for the fork. */
export interface SidecarFile {
  rel: string;
  original: Buffer;
  fork: Buffer;
  sessionIdRewritten: boolean;
  /** The original's permission bits: the copy gets the same. */
  mode: number;
}

const SIDECAR_DIRS = ['subagents', 'tool-results'] as const;

/** Carried-over files whose `rel` starts with this are checkpoint backups, kept outside the projects folder. */
const FILE_HISTORY = 'file-history/';

/**
 * The session id a session file's name gives, when it is a plain name (`<id>.jsonl`); null for names
 * like `...jsonl` or `.jsonl`, whose side folder would be the project folder or the one above it.
 */
function plainSessionId(sessionPath: string): string | null {
  const id = basename(sessionPath).replace(/\.jsonl$/i, '');
  return id === '' || id === '.' || id === '..' || /[\\/\0]/.test(id) ? null : id;
}

/** `<project>/<sessionId>/`: the folder beside a session file holding its subagents and large outputs. */
export function sessionFolderOf(sessionPath: string): string {
  const id = plainSessionId(sessionPath);
  if (!id) throw new ForkError('invalid', `${sessionPath}: a session file needs a plain name (<id>.jsonl) to have a folder of its own`);
  return join(dirname(sessionPath), id);
}

/**
 * `<config>/file-history/<sessionId>/`: the backups `file-history-snapshot` records name, which
 * `/rewind` reads by the session's id. Only known when the session lies in `<config>/projects/<slug>/`.
 */
export function fileHistoryFolderOf(sessionPath: string): string | null {
  const id = plainSessionId(sessionPath);
  const projects = dirname(dirname(sessionPath));
  if (!id || basename(projects) !== 'projects') return null;
  return join(dirname(projects), 'file-history', id);
}

/** An agent's side folders for one session (AgentLocator.sideFiles), by the name a `rel` starts with. */
export type SideFolders = readonly { name: string; path: string }[];

/**
 * Where a carried-over file goes for the session file at `sessionPath`, and the folder it creates:
 * into the agent's side folder its `rel` names (`folders`, for the session being written), else the
 * folder beside the session file.
 */
export function sidecarTarget(sessionPath: string, rel: string, folders: SideFolders = []): { folder: string; path: string } {
  if (!isSafeSideRel(rel)) throw new ForkError('invalid', `refused the side-file path "${rel}": it must stay inside the session's folders`);
  const named = folders.find((f) => rel.startsWith(`${f.name}/`));
  if (named) return { folder: named.path, path: join(named.path, rel.slice(named.name.length + 1)) };
  if (rel.startsWith(FILE_HISTORY)) {
    const folder = fileHistoryFolderOf(sessionPath);
    if (folder) return { folder, path: join(folder, rel.slice(FILE_HISTORY.length)) };
  }
  const folder = sessionFolderOf(sessionPath);
  return { folder, path: join(folder, rel) };
}

/**
 * Every file under `dir` (relative names with `rel` before them), found without following any link.
 * A link or anything but a folder or a regular file refuses the fork: following it would copy a file
 * from outside the session's folders into the fork and the archive.
 */
function listFiles(dir: string, rel: string, out: { rel: string; path: string; mode: number; base: string; baseRel: string }[], base: string, baseRel = rel): void {
  const st = lstatOrNull(dir);
  if (!st) return;
  refuseUnlessPlain(dir, st, true);
  for (const name of unreadableAsForkError(dir, () => readdirSync(dir).sort())) {
    const path = join(dir, name);
    const r = rel ? `${rel}/${name}` : name;
    const s = unreadableAsForkError(path, () => lstatSync(path));
    refuseUnlessPlain(path, s, false);
    if (s.isDirectory()) listFiles(path, r, out, base, `${baseRel}/${name}`);
    else out.push({ rel: r, path, mode: s.mode & 0o777, base, baseRel: `${baseRel}/${name}` });
  }
}

function refuseUnlessPlain(path: string, st: Stats, mustBeDir: boolean): void {
  if (st.isSymbolicLink()) {
    throw new ForkError('unsafe_side_file', `${path} is a symbolic link: Glassbox never follows links out of a session's folders, so no fork was written. Replace the link with the file, or remove it.`);
  }
  if (mustBeDir ? !st.isDirectory() : !st.isDirectory() && !st.isFile()) {
    throw new ForkError('unsafe_side_file', `${path} is ${describeKind(st)}: a session's side files must be regular files, so no fork was written.`);
  }
}

function describeKind(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isFile()) return 'a file where a folder should be';
  return 'not a regular file';
}

/**
 * The session's subagent and tool-result files and its checkpoint backups, as the fork will carry
 * them: subagent transcripts get the fork's session id (they name their parent session), validated
 * like the fork itself; everything else is copied byte for byte. Only the session's own folders are
 * read (a session file without a plain name has none), and no link is followed.
 */
export function prepareSidecars(sessionPath: string, newSessionId: string, format: AgentFormat, side?: { files: SessionSideFiles; sessionId: string }): SidecarFile[] {
  if (side) return prepareNamedFolders(sessionPath, side.files, side.sessionId);
  // Only an agent that keeps a folder named like the session file has one to carry (Claude Code).
  if (!format.source.sideFolder) return [];
  const id = plainSessionId(sessionPath);
  if (!id) return [];
  const folder = sessionFolderOf(sessionPath);
  const files: { rel: string; path: string; mode: number; base: string; baseRel: string }[] = [];
  if (lstatOrNull(folder)) {
    refuseUnlessPlain(folder, lstatSync(folder), true);
    const base = realFolder(folder) ?? folder;
    for (const d of SIDECAR_DIRS) listFiles(join(folder, d), d, files, base);
  }
  // Checkpoint backups are copied as they are: the fork's records name the same backup files.
  const history = fileHistoryFolderOf(sessionPath);
  if (history && lstatOrNull(history)) listFiles(history, FILE_HISTORY.slice(0, -1), files, realFolder(history) ?? history, '');
  return files.map((f) => prepareOne(format, f.path, f.rel, newSessionId, readSideFile(f.path, f.base, f.baseRel.replace(/^\//, '')), f.mode));
}

/**
 * The files of an agent's side folders for a session (Gemini CLI's subagent chats and saved outputs),
 * copied byte for byte; every file the transcript names there must exist, or nothing is written: a
 * fork that names a file it does not carry would send the model looking for it.
 */
function prepareNamedFolders(sessionPath: string, side: SessionSideFiles, sessionId: string): SidecarFile[] {
  const missing = unreadableAsForkError(sessionPath, () => side.referenced(sessionPath, sessionId)).filter((p) => !lstatOrNull(p));
  if (missing.length > 0) {
    const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : '';
    throw new ForkError('side_file_missing', `${sessionPath} names ${missing[0]}${more}, which is not there: the fork could not carry it, so nothing was written. Restore the file (or the session's tool-outputs folder) first.`);
  }
  const files: { rel: string; path: string; mode: number; base: string; baseRel: string }[] = [];
  for (const f of side.folders(sessionPath, sessionId)) {
    const st = lstatOrNull(f.path);
    if (!st) continue;
    refuseUnlessPlain(f.path, st, true);
    listFiles(f.path, f.name, files, realFolder(f.path) ?? f.path, '');
  }
  return files.map((f) => {
    const bytes = readSideFile(f.path, f.base, f.baseRel.replace(/^\//, ''));
    return { rel: f.rel, original: bytes, fork: bytes, sessionIdRewritten: false, mode: f.mode };
  });
}

/** One side file as the fork carries it: a subagent transcript (small: held in memory) gets the fork's session id. */
export function prepareOne(format: AgentFormat, path: string, rel: string, newSessionId: string, bytes: Buffer, mode = 0o600): SidecarFile {
  if (!rel.startsWith('subagents/') || !rel.endsWith('.jsonl')) return { rel, original: bytes, fork: bytes, sessionIdRewritten: false, mode };
  const snap = snapshotOf(path, bytes);
  const fork = buildForkFromLines(format.createForkBuilder([], newSessionId), snap.lines);
  const report = validateFromLines(format.createForkValidator(), snap.lines, fork.lines);
  const failed = report.checks.filter((c) => !c.ok && c.id !== 'session-id');
  // A subagent file with no sessionId at all needs no rewrite; anything else must check out.
  if (failed.length > 0) {
    throw new ForkError('invalid', `the subagent file ${rel} could not be carried over: ${failed.map((c) => c.id).join(', ')} failed`);
  }
  const text = joinLines(fork.lines, snap.endsWithNewline);
  const forkBytes = Buffer.from(text, 'utf8');
  return { rel, original: bytes, fork: forkBytes, sessionIdRewritten: sha256Hex(forkBytes) !== sha256Hex(bytes), mode };
}

/**
 * Reads a side file without following a link that replaced it since it was listed, and without
 * blocking on a FIFO that did: only a regular file is read.
 */
function readSideFile(path: string, base: string, rel: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new ForkError('unsafe_side_file', `${path} became a symbolic link while the fork was prepared; no fork was written.`);
    throw new ForkError('source_unreadable', `${path}: cannot be read (${code ?? 'error'})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new ForkError('unsafe_side_file', `${path} is ${describeKind(st)}: a session's side files must be regular files, so no fork was written.`);
    if (!openedInPlace(fd, path, base, rel)) {
      throw new ForkError('unsafe_side_file', `${path} was reached through a link (a folder on its way became one while the fork was prepared): Glassbox never follows links out of a session's folders, so no fork was written.`);
    }
    return readWhole(fd, st.size);
  } finally {
    closeSync(fd);
  }
}

function unreadableAsForkError<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ForkError('source_unreadable', `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); no fork was written`);
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
