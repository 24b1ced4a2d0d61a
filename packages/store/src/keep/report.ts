import { statSync } from 'node:fs';
import { join } from 'node:path';
import { KeptArchive, type KeptSession } from './kept-archive';
import { filesOf, type KeptManifest } from './manifest';

export interface ArchivedSession {
  key: string;
  sessionId: string;
  agent: string;
  project: string;
  cwd: string | null;
  title: string | null;
  originalPath: string;
  /** The newest version: when it was kept, the transcript's modification time, its files and bytes. */
  keptAt: string;
  lastActivity: string;
  files: number;
  bytes: number;
  versions: { name: string; keptAt: string }[];
  /** When Glassbox saw the original gone (null: it is still there). */
  goneSince: string | null;
}

export interface ArchiveReport {
  root: string;
  sessions: ArchivedSession[];
  byProject: { project: string; sessions: number; versions: number; bytes: number; storedBytes: number }[];
  totals: {
    sessions: number;
    versions: number;
    /** Bytes of the newest versions (what plain copies of them would take). */
    bytes: number;
    /** Bytes of every version together (what a plain copy per keep would take). */
    allVersionsBytes: number;
    chunks: number;
    /** Bytes the chunks and manifests take on disk. */
    storedBytes: number;
  };
  problems: string[];
}

/** What the archive holds: every kept session with its versions, sizes by project, and what it takes on disk. */
export function archiveReport(archiveDir: string): ArchiveReport {
  const archive = new KeptArchive(archiveDir);
  const problems: string[] = [];
  const sessions = archive.sessions(problems);
  const chunkSize = new Map<string, number>();
  const sizeOf = (sha: string): number => {
    let n = chunkSize.get(sha);
    if (n === undefined) {
      n = archive.chunks.storedSize(sha);
      chunkSize.set(sha, n);
    }
    return n;
  };
  const projects = new Map<string, { sessions: number; versions: number; bytes: number; chunks: Set<string>; manifests: number }>();
  let allVersionsBytes = 0;
  let manifestBytes = 0;
  const out: ArchivedSession[] = [];
  for (const s of sessions) {
    const p = projects.get(s.latest.original.project) ?? { sessions: 0, versions: 0, bytes: 0, chunks: new Set<string>(), manifests: 0 };
    p.sessions++;
    p.versions += s.versions.length;
    p.bytes += bytesOf(s.latest);
    for (const v of versionsOf(archive, s, problems)) {
      allVersionsBytes += bytesOf(v.manifest);
      manifestBytes += v.size;
      p.manifests += v.size;
      for (const f of filesOf(v.manifest)) for (const [sha] of f.file.chunks) p.chunks.add(sha);
    }
    projects.set(s.latest.original.project, p);
    out.push(describe(s));
  }
  const allChunks = new Set<string>();
  for (const p of projects.values()) for (const c of p.chunks) allChunks.add(c);
  const storedChunks = [...allChunks].reduce((n, c) => n + sizeOf(c), 0);
  return {
    root: archiveDir,
    sessions: out.sort((a, b) => b.lastActivity.localeCompare(a.lastActivity)),
    byProject: [...projects.entries()]
      .map(([project, p]) => ({ project, sessions: p.sessions, versions: p.versions, bytes: p.bytes, storedBytes: p.manifests + [...p.chunks].reduce((n, c) => n + sizeOf(c), 0) }))
      .sort((a, b) => b.storedBytes - a.storedBytes),
    totals: {
      sessions: out.length,
      versions: out.reduce((n, s) => n + s.versions.length, 0),
      bytes: out.reduce((n, s) => n + s.bytes, 0),
      allVersionsBytes,
      chunks: allChunks.size,
      storedBytes: storedChunks + manifestBytes,
    },
    problems,
  };
}

function describe(s: KeptSession): ArchivedSession {
  const m = s.latest;
  return {
    key: s.key,
    sessionId: m.sessionId,
    agent: m.agent,
    project: m.original.project,
    cwd: m.original.cwd,
    title: m.original.title,
    originalPath: m.original.path,
    keptAt: m.keptAt,
    lastActivity: new Date(m.transcript.mtimeMs).toISOString(),
    files: filesOf(m).length,
    bytes: bytesOf(m),
    versions: s.versions,
    goneSince: s.gone?.noticedAt ?? null,
  };
}

function bytesOf(m: KeptManifest): number {
  return filesOf(m).reduce((n, f) => n + f.file.bytes, 0);
}

/** Every readable version of a session with its manifest and the manifest's size on disk. */
export function versionsOf(archive: KeptArchive, s: KeptSession, problems: string[]): { name: string; manifest: KeptManifest; size: number }[] {
  const out: { name: string; manifest: KeptManifest; size: number }[] = [];
  for (const v of s.versions) {
    try {
      const manifest = v.name === s.versions.at(-1)?.name ? s.latest : archive.read(s.key, v.name);
      let size = 0;
      try {
        size = statSync(join(archive.dir, s.key, v.name)).size;
      } catch {
        // Removed meanwhile.
      }
      out.push({ name: v.name, manifest, size });
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return out;
}
