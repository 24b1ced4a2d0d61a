import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { headLines, pathList } from '@glassbox/file-io';
import { parseObject, type DiscoveredFile } from '@glassbox/core';
import { GEMINI } from '../identity';
import { readChatFile } from './read-file';
import { lastUpdatedOf } from './last-updated';
import { isChatFileName, isMainChatName, isSessionUuid, shortIdOfName } from './names';

/** A chat this small may be a resume's start-up stub: it is read to see whether it holds anything to resume. */
const STUB_MAX_BYTES = 64 * 1024;

/**
 * The Gemini CLI homes to look in: each of `$GEMINI_CLI_HOME` (the client's own override of the
 * home it puts `.gemini/` in; several may be given, separated by commas), else the user's home.
 */
export function geminiHomes(env: Readonly<Record<string, string | undefined>>, home: string = homedir()): string[] {
  return pathList(env['GEMINI_CLI_HOME'], home) ?? [home];
}

/** `<home>/.gemini/tmp`: one folder per project (its hash up to 0.28, a slug from 0.29), each with `chats/`. */
export function chatRoots(homes: readonly string[]): string[] {
  return homes.map((h) => join(h, '.gemini', 'tmp'));
}

/**
 * What a chat file is, from its path and its first lines. A subagent's parent is looked up in its
 * chats folder unless the caller already knows it (discovery does: `parentKnown`).
 */
export function describeChat(path: string, parentKnown = false): Omit<DiscoveredFile, 'root'> {
  const name = basename(path);
  const folder = dirname(path);
  const sub = isSessionUuid(basename(folder)) && basename(dirname(folder)) === 'chats';
  const chats = sub ? dirname(folder) : folder;
  const project = basename(dirname(chats));
  if (sub) {
    const parentId = basename(folder);
    return { agent: GEMINI, path, project, kind: 'subagent', parentPath: parentKnown ? null : findMainChat(chats, parentId), agentId: name.replace(/\.jsonl?$/i, ''), sessionId: parentId };
  }
  // A chat that is not there (a kept session about to be restored) has an id its name gives only the
  // first 8 characters of: unknown ('') rather than a prefix, which would not be the session's id.
  const fromName = existsSync(path) ? (shortIdOfName(name) ?? name.replace(/\.jsonl?$/i, '')) : '';
  return { agent: GEMINI, path, project, kind: 'session', parentPath: null, agentId: null, sessionId: sessionIdInHead(path) ?? fromName };
}

/** The session id a chat names in its first record (a log) or its opening keys (a document). */
function sessionIdInHead(path: string): string | null {
  const head = headLines(path);
  const first = head.find((l) => l.trim() !== '');
  if (first === undefined) return null;
  if (first.trim() === '{') {
    for (const l of head.slice(1, 8)) {
      const m = /^\s*"sessionId":\s*"([^"]+)"/.exec(l);
      if (m) return m[1] as string;
    }
    return null;
  }
  const r = parseObject(first);
  return typeof r?.['sessionId'] === 'string' ? r['sessionId'] : null;
}

/** The main chat of session `sessionId` in a chats folder (the one discovery would keep), or null. */
function findMainChat(chats: string, sessionId: string): string | null {
  const short = sessionId.slice(0, 8);
  const candidates = names(chats).filter((n) => isMainChatName(n) && shortIdOfName(n) === short).map((n) => join(chats, n));
  return candidates.find((p) => sessionIdInHead(p) === sessionId && resumable(p)) ?? candidates.find((p) => sessionIdInHead(p) === sessionId) ?? null;
}

interface Found {
  file: Omit<DiscoveredFile, 'root'>;
  root: string;
  mtimeMs: number;
  /** The chat's own `lastUpdated` (ms), else its modification time. */
  updatedMs: number;
}

/** A project folder named by the root's SHA-256 (≤ 0.28); 0.29+ name theirs by a slug and copy the old one. */
const HASHED_FOLDER = /^[0-9a-f]{64}$/;

/**
 * Which of two copies of one session the list keeps: the later `lastUpdated` (the client's rule
 * within a folder); on a tie a log (0.39+ migrate a document into a log beside it), then the slug
 * folder the current client resumes from over the hashed one it was copied from, then the later file.
 */
function newer(a: Found, b: Found): boolean {
  if (a.updatedMs !== b.updatedMs) return a.updatedMs > b.updatedMs;
  const log = (f: Found) => f.file.path.endsWith('.jsonl');
  if (log(a) !== log(b)) return log(a);
  const slug = (f: Found) => !HASHED_FOLDER.test(f.file.project);
  if (slug(a) !== slug(b)) return slug(a);
  return a.mtimeMs > b.mtimeMs;
}

/**
 * Every chat the client would list under the roots, and the subagent chats of those: main chats
 * directly in `<project>/chats/`, subagents one folder down. Left out, as the client leaves them out:
 * a chat with nothing to resume (the start-up stub a resume in another minute writes), and all but
 * one copy of a session (the same id in a hashed folder copied to its slug folder by 0.29+, or a
 * `.json` migrated to `.jsonl` beside it by 0.39+): the one with the later `lastUpdated` is kept,
 * as the client keeps it (`newer` has the ties).
 */
export function discoverChats(roots: readonly string[]): DiscoveredFile[] {
  const mains: Found[] = [];
  const subs: Found[] = [];
  for (const root of roots) {
    for (const project of names(root)) {
      const chats = join(root, project, 'chats');
      for (const name of names(chats)) {
        const path = join(chats, name);
        const st = stat(path);
        if (st?.isFile() && isMainChatName(name)) {
          if (!resumable(path, st.size)) continue;
          mains.push({ file: describeChat(path), root, mtimeMs: st.mtimeMs, updatedMs: lastUpdatedOf(path) ?? st.mtimeMs });
        } else if (st?.isDirectory() && isSessionUuid(name)) {
          for (const sub of names(path)) {
            const sp = join(path, sub);
            const sst = stat(sp);
            if (sst?.isFile() && isChatFileName(sub)) subs.push({ file: describeChat(sp, true), root, mtimeMs: sst.mtimeMs, updatedMs: sst.mtimeMs });
          }
        }
      }
    }
  }
  const kept = new Map<string, Found>();
  for (const m of mains) {
    const prev = kept.get(m.file.sessionId);
    if (!prev || newer(m, prev)) kept.set(m.file.sessionId, m);
  }
  const out: DiscoveredFile[] = [...kept.values()].map((m) => ({ ...m.file, root: m.root }));
  for (const s of subs) {
    const parent = kept.get(s.file.sessionId);
    // Only the kept copy's own subagent chats (a copied project folder has the same ones).
    if (!parent || dirname(dirname(s.file.path)) !== dirname(parent.file.path)) continue;
    out.push({ ...s.file, parentPath: parent.file.path, root: s.root });
  }
  return out;
}

/** Whether a chat holds a prompt or a reply (the client's `hasResumableContent`); large chats always do. */
function resumable(path: string, size = stat(path)?.size ?? 0): boolean {
  if (size > STUB_MAX_BYTES) return true;
  const s = readChatFile(path);
  if (s.problems.some((p) => p.severity === 'error')) return true; // listed, so that its problem is shown
  return s.order.some((u) => {
    const k = s.nodes.get(u)?.kind;
    return k === 'prompt' || k === 'assistant';
  });
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function stat(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
