import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { buildFork, validateFork } from '@glassbox/adapter-claude-code';
import { ForkError } from './atomic';
import { sha256Hex } from './archive';
import { joinLines, readReadOnly, snapshotOf } from './source';

/** A file of `<session>/subagents/` or `<session>/tool-results/`, ready to be written for the fork. */
export interface SidecarFile {
  rel: string;
  original: Buffer;
  fork: Buffer;
  sessionIdRewritten: boolean;
}

export const SIDECAR_DIRS = ['subagents', 'tool-results'] as const;

/** `<project>/<sessionId>/`: the folder beside a session file holding its subagents and large outputs. */
export function sessionFolderOf(sessionPath: string): string {
  return join(dirname(sessionPath), basename(sessionPath).replace(/\.jsonl$/i, ''));
}

/** Carried-over files whose `rel` starts with this are checkpoint backups, kept outside the projects folder. */
export const FILE_HISTORY = 'file-history/';

/**
 * `<config>/file-history/<sessionId>/`: the backups `file-history-snapshot` records name, which
 * `/rewind` reads by the session's id. Only known when the session lies in `<config>/projects/<slug>/`.
 */
export function fileHistoryFolderOf(sessionPath: string): string | null {
  const projects = dirname(dirname(sessionPath));
  if (basename(projects) !== 'projects') return null;
  return join(dirname(projects), 'file-history', basename(sessionPath).replace(/\.jsonl$/i, ''));
}

/** Where a carried-over file goes for the session file at `sessionPath`, and the folder it creates. */
export function sidecarTarget(sessionPath: string, rel: string): { folder: string; path: string } {
  if (rel.startsWith(FILE_HISTORY)) {
    const folder = fileHistoryFolderOf(sessionPath);
    if (folder) return { folder, path: join(folder, rel.slice(FILE_HISTORY.length)) };
  }
  const folder = sessionFolderOf(sessionPath);
  return { folder, path: join(folder, rel) };
}

function listFiles(dir: string, rel: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const r = `${rel}/${name}`;
    if (statSync(path).isDirectory()) listFiles(path, r, out);
    else out.push(r);
  }
}

/**
 * The session's subagent and tool-result files and its checkpoint backups, as the fork will carry
 * them: subagent transcripts get the fork's session id (they name their parent session), validated
 * like the fork itself; everything else is copied byte for byte.
 */
export function prepareSidecars(sessionPath: string, newSessionId: string): SidecarFile[] {
  const folder = sessionFolderOf(sessionPath);
  const out: SidecarFile[] = [];
  const rels: string[] = [];
  for (const d of SIDECAR_DIRS) listFiles(join(folder, d), d, rels);
  for (const rel of rels) out.push(prepareOne(join(folder, rel), rel, newSessionId));
  // Checkpoint backups are copied as they are: the fork's records name the same backup files.
  const history = fileHistoryFolderOf(sessionPath);
  if (history && existsSync(history)) {
    const files: string[] = [];
    listFiles(history, '', files);
    for (const f of files) {
      const rel = `${FILE_HISTORY}${f.slice(1)}`;
      out.push(prepareOne(join(history, f.slice(1)), rel, newSessionId));
    }
  }
  return out;
}

export function prepareOne(path: string, rel: string, newSessionId: string, bytes = readReadOnly(path)): SidecarFile {
  if (!rel.startsWith('subagents/') || !rel.endsWith('.jsonl')) return { rel, original: bytes, fork: bytes, sessionIdRewritten: false };
  const snap = snapshotOf(path, bytes);
  const fork = buildFork(snap.lines, [], newSessionId);
  const report = validateFork(snap.lines, fork.lines);
  const failed = report.checks.filter((c) => !c.ok && c.id !== 'session-id');
  // A subagent file with no sessionId at all needs no rewrite; anything else must check out.
  if (failed.length > 0) {
    throw new ForkError('invalid', `the subagent file ${rel} could not be carried over: ${failed.map((c) => c.id).join(', ')} failed`);
  }
  const text = joinLines(fork.lines, snap.endsWithNewline);
  const forkBytes = Buffer.from(text, 'utf8');
  return { rel, original: bytes, fork: forkBytes, sessionIdRewritten: sha256Hex(forkBytes) !== sha256Hex(bytes) };
}
