import { KeptArchive } from './kept-archive';
import { lockKept } from './lock';
import { filesOf } from './manifest';
import { versionsOf } from './report';

export interface PrunePlan {
  cutoff: string;
  /** Sessions whose newest version was last active before the cut-off: removed with every version. */
  sessions: { key: string; sessionId: string; originalPath: string; lastActivity: string; versions: number; goneSince: string | null }[];
  /** Older versions of the sessions that stay, kept before the cut-off (their newest version stays). */
  versions: { key: string; sessionId: string; version: string; keptAt: string }[];
  /** Chunks no remaining version names, and the bytes they free. */
  chunks: number;
  freedBytes: number;
  problems: string[];
}

/**
 * What `archive prune --older-than` would remove, computed without changing anything: sessions last
 * active before the cut-off (all their versions), and versions of other sessions superseded before it;
 * then the chunks nothing else names. A version whose manifest cannot be read is never removed (its
 * chunks stay too), and neither is anything of forks.
 */
export function planPrune(archiveDir: string, cutoff: Date): PrunePlan {
  const archive = new KeptArchive(archiveDir);
  const problems: string[] = [];
  const plan: PrunePlan = { cutoff: cutoff.toISOString(), sessions: [], versions: [], chunks: 0, freedBytes: 0, problems };
  const keepChunks = new Set<string>();
  const dropChunks = new Set<string>();
  for (const s of archive.sessions(problems)) {
    const all = versionsOf(archive, s, problems);
    const lastActivity = s.latest.transcript.mtimeMs;
    const wholeSession = lastActivity < cutoff.getTime();
    if (wholeSession) {
      plan.sessions.push({ key: s.key, sessionId: s.latest.sessionId, originalPath: s.latest.original.path, lastActivity: new Date(lastActivity).toISOString(), versions: s.versions.length, goneSince: s.gone?.noticedAt ?? null });
    }
    // Versions that did not read stay, and so does everything they might name: unread names are unknown.
    if (all.length < s.versions.length) {
      problems.push(`${s.key}: ${s.versions.length - all.length} version(s) could not be read; the archive keeps every chunk until they can`);
      return { ...plan, chunks: 0, freedBytes: 0, sessions: [], versions: [] };
    }
    for (const v of all) {
      const newest = v.name === s.versions.at(-1)?.name;
      const drop = wholeSession || (!newest && Date.parse(v.manifest.keptAt) < cutoff.getTime());
      if (drop && !wholeSession) plan.versions.push({ key: s.key, sessionId: s.latest.sessionId, version: v.name, keptAt: v.manifest.keptAt });
      for (const f of filesOf(v.manifest)) for (const [sha] of f.file.chunks) (drop ? dropChunks : keepChunks).add(sha);
    }
  }
  for (const sha of dropChunks) {
    if (keepChunks.has(sha)) continue;
    plan.chunks++;
    plan.freedBytes += archive.chunks.storedSize(sha);
  }
  return plan;
}

export interface PruneResult {
  removedSessions: number;
  removedVersions: number;
  removedChunks: number;
  freedBytes: number;
  problems: string[];
}

/**
 * Prunes: alone on the archive (no keep runs meanwhile), it plans again, removes the versions, then
 * every chunk no remaining version of any session names (including chunks a crashed keep left
 * unnamed). Returns what it did, which may be less than a dry run showed if keeps ran in between.
 */
export function applyPrune(archiveDir: string, cutoff: Date, lockWaitMs?: number): PruneResult {
  const archive = new KeptArchive(archiveDir);
  const release = lockKept(archive.dir, 'prune', lockWaitMs);
  try {
    const plan = planPrune(archiveDir, cutoff);
    if (plan.problems.some((p) => p.includes('could not be read'))) return { removedSessions: 0, removedVersions: 0, removedChunks: 0, freedBytes: 0, problems: plan.problems };
    for (const s of plan.sessions) for (const v of archive.versions(s.key)) archive.removeVersion(s.key, v);
    for (const v of plan.versions) archive.removeVersion(v.key, v.version);
    const named = new Set<string>();
    const problems = [...plan.problems];
    for (const s of archive.sessions(problems)) {
      const all = versionsOf(archive, s, problems);
      if (all.length < s.versions.length) return { removedSessions: plan.sessions.length, removedVersions: plan.versions.length, removedChunks: 0, freedBytes: 0, problems };
      for (const v of all) for (const f of filesOf(v.manifest)) for (const [sha] of f.file.chunks) named.add(sha);
    }
    let removedChunks = 0;
    let freedBytes = 0;
    for (const sha of archive.chunks.list()) {
      if (named.has(sha)) continue;
      freedBytes += archive.chunks.storedSize(sha);
      archive.chunks.remove(sha);
      removedChunks++;
    }
    return { removedSessions: plan.sessions.length, removedVersions: plan.versions.length, removedChunks, freedBytes, problems };
  } finally {
    release();
  }
}

/** `1y`, `6m`, `90d`, `2w`: a span back from now; null for anything else. */
export function parseAge(text: string, now = Date.now()): Date | null {
  const m = /^(\d+)\s*(d|w|m|y)$/i.exec(text.trim());
  if (!m?.[1] || !m[2]) return null;
  const days = { d: 1, w: 7, m: 30, y: 365 }[m[2].toLowerCase() as 'd' | 'w' | 'm' | 'y'];
  return new Date(now - Number(m[1]) * days * 86_400_000);
}
