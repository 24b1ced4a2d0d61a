import { basename, dirname, resolve } from 'node:path';
import { agentForFile } from '@glassbox/file-io';
import { expiryOf, type AgentRegistry } from '@glassbox/core';
import { sha256Hex } from '../fork/archive';
import { quickLook } from '../shared/quick';
import { chunkLengths } from './chunker';
import { KeepError } from './errors';
import { KeptArchive } from './kept-archive';
import { lockKept } from './lock';
import { filesOf, type KeptFile, type KeptManifest, type KeptPart } from './manifest';
import { filesUnder, readRegular, type Skipped } from './read-safely';
import { isInKeptView } from './view';
import { realFolder } from '../shared/in-place';

export interface KeepOptions {
  /** The archive folder (`<data>/archive`). */
  archiveDir: string;
  agents: AgentRegistry;
  now?: () => Date;
  /** How long to wait for a prune running at the same time (default 30 s). */
  lockWaitMs?: number;
}

export interface KeepResult {
  /** 'kept': a new version was written; 'unchanged': the newest version already holds these bytes. */
  status: 'kept' | 'unchanged';
  key: string;
  version: string | null;
  sessionId: string;
  path: string;
  files: number;
  /** Bytes of the session's files (what a plain copy would take). */
  bytes: number;
  /** Chunks this keep stored, and the bytes they took on disk (compressed). */
  newChunks: number;
  writtenBytes: number;
  /** Chunks of the previous version reused without reading them again. */
  reusedChunks: number;
  skipped: Skipped[];
  expiresAt: string | null;
}

/** What the chunking of one file produced: its manifest entry and what it cost. */
interface Chunked {
  file: KeptFile;
  newChunks: number;
  writtenBytes: number;
  reusedChunks: number;
}

/**
 * Keeps a session in the archive: its transcript and every file the agent's client deletes with it
 * (subagent and tool-result files, checkpoint backups), chunked by content and compressed. Only what
 * changed since the newest kept version is chunked and stored again: the chunks of an unchanged
 * prefix are reused after their hash is checked against the file. Nothing outside the archive is
 * written; the session's files are opened read-only and no link is followed. A session whose bytes
 * and modification time match its newest version gets no new version.
 */
export function keepSession(sessionPath: string, options: KeepOptions): KeepResult {
  const path = resolve(sessionPath);
  if (isInKeptView(path)) throw new KeepError('not_an_agent_session', `${path} is the archive's copy of a kept session whose original is gone: it is kept already (glassbox restore writes it back)`);
  const agent = agentForFile(options.agents, path);
  const skipped: Skipped[] = [];
  const transcript = readRegular(path, skipped);
  if (!transcript) throw new KeepError('source_unreadable', skipped[0] ? `${path} ${skipped[0].reason}; nothing was kept` : `${path}: no such file; nothing was kept`);
  const described = agent.locator.describe(path);
  if (described.kind !== 'session') throw new KeepError('not_an_agent_session', `${path} is a subagent file: keep the session it belongs to (it is kept with it)`);
  const look = safeQuickLook(path, agent.format);
  const sessionId = described.sessionId || look?.sessionId || basename(path).replace(/\.jsonl$/i, '');
  const archive = new KeptArchive(options.archiveDir);
  const key = KeptArchive.keyOf(sessionId, path);
  const previous = archive.session(key)?.latest ?? null;
  const before = new Map(previous ? filesOf(previous).map((f) => [`${f.part ?? ''}\0${f.file.rel}`, f.file]) : []);

  const release = lockKept(archive.dir, 'keep', options.lockWaitMs);
  try {
    // What killed keeps left (temporary chunks never named) goes first.
    archive.chunks.sweepOnce();
    let newChunks = 0;
    let writtenBytes = 0;
    let reusedChunks = 0;
    const store = (bytes: Buffer, mtimeMs: number, mode: number, part: string | null, rel: string): KeptFile => {
      const c = chunkFile(archive, bytes, before.get(`${part ?? ''}\0${rel}`) ?? null);
      newChunks += c.newChunks;
      writtenBytes += c.writtenBytes;
      reusedChunks += c.reusedChunks;
      return { ...c.file, rel, mtimeMs, mode };
    };
    const main = store(transcript.bytes, transcript.mtimeMs, transcript.mode, null, '');
    const parts: KeptPart[] = [];
    for (const part of agent.locator.retention?.layoutOf(path).parts ?? []) {
      const found = part.kind === 'folder' ? filesUnder(part.path, skipped) : [{ rel: '', path: part.path }];
      const base = part.kind === 'folder' ? realFolder(part.path) : null;
      const files: KeptFile[] = [];
      for (const f of found) {
        const read = readRegular(f.path, skipped, base ? { base, rel: f.rel } : undefined);
        if (read) files.push(store(read.bytes, read.mtimeMs, read.mode, part.name, f.rel));
      }
      if (files.length > 0) parts.push({ name: part.name, kind: part.kind, files });
    }
    const rule = agent.locator.retention?.ruleFor(path, look?.cwd ?? null) ?? null;
    const expiry = rule ? expiryOf(transcript.mtimeMs, rule) : null;
    const manifest: KeptManifest = {
      version: 1,
      kind: 'kept',
      agent: agent.format.id,
      sessionId,
      keptAt: (options.now?.() ?? new Date()).toISOString(),
      original: {
        path,
        configFolder: agent.locator.retention?.configFolderOf(path) ?? null,
        project: described.project || basename(dirname(path)),
        cwd: look?.cwd ?? null,
        title: look?.title ?? look?.firstPrompt?.split('\n')[0]?.slice(0, 200) ?? null,
      },
      expiresAt: expiry === null ? null : new Date(expiry).toISOString(),
      transcript: main,
      parts,
      skipped,
    };
    const all = filesOf(manifest);
    const bytes = all.reduce((n, f) => n + f.file.bytes, 0);
    const base = { key, sessionId, path, files: all.length, bytes, newChunks, writtenBytes, reusedChunks, skipped, expiresAt: manifest.expiresAt };
    if (previous && sameContent(previous, manifest)) return { ...base, status: 'unchanged', version: null };
    archive.chunks.flush();
    const version = archive.write(manifest);
    return { ...base, status: 'kept', version };
  } finally {
    release();
  }
}

function safeQuickLook(path: string, format: Parameters<typeof quickLook>[2]) {
  try {
    return quickLook(path, false, format).state;
  } catch {
    return null;
  }
}

/**
 * Chunks one file. When an earlier version of it exists, its chunks are reused in order for as long
 * as the file's bytes still hash to them (an appended file keeps its whole prefix), except the last,
 * which ended at the old end of file rather than at a content cut; chunking resumes from there.
 */
function chunkFile(archive: KeptArchive, bytes: Buffer, before: KeptFile | null): Chunked {
  const whole = sha256Hex(bytes);
  // Unchanged: every chunk is reused as it is (the common case for side files and idle sessions).
  if (before && before.sha256 === whole && before.bytes === bytes.length && before.chunks.every(([sha]) => archive.chunks.has(sha))) {
    return { file: { ...before, chunks: [...before.chunks] }, newChunks: 0, writtenBytes: 0, reusedChunks: before.chunks.length };
  }
  const chunks: [string, number][] = [];
  let at = 0;
  let reusedChunks = 0;
  if (before) {
    const reusable = before.chunks.slice(0, -1);
    for (const [sha, len] of reusable) {
      if (at + len > bytes.length || sha256Hex(bytes.subarray(at, at + len)) !== sha || !archive.chunks.has(sha)) break;
      chunks.push([sha, len]);
      at += len;
      reusedChunks++;
    }
  }
  let newChunks = 0;
  let writtenBytes = 0;
  for (const len of chunkLengths(bytes, at)) {
    const piece = bytes.subarray(at, at + len);
    const put = archive.chunks.put(piece);
    chunks.push([put.sha256, len]);
    if (put.written > 0) newChunks++;
    writtenBytes += put.written;
    at += len;
  }
  return { file: { rel: '', bytes: bytes.length, sha256: whole, mtimeMs: 0, mode: 0o600, chunks }, newChunks, writtenBytes, reusedChunks };
}

/** Same files with the same bytes, and the transcript not touched since: nothing new to keep. */
function sameContent(a: KeptManifest, b: KeptManifest): boolean {
  if (a.transcript.sha256 !== b.transcript.sha256 || a.transcript.mtimeMs !== b.transcript.mtimeMs) return false;
  const fa = filesOf(a).map((f) => `${f.part ?? ''}\0${f.file.rel}\0${f.file.sha256}`).sort();
  const fb = filesOf(b).map((f) => `${f.part ?? ''}\0${f.file.rel}\0${f.file.sha256}`).sort();
  return fa.length === fb.length && fa.every((x, i) => x === fb[i]);
}
