import type { AgentRegistry } from '@glassbox/core';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Archive } from '../fork/archive';
import { assemble } from './assemble';
import { KeptArchive } from './kept-archive';
import { filesOf } from './manifest';
import { versionsOf } from './report';

export interface VerifyArchiveResult {
  ok: boolean;
  sessions: number;
  versions: number;
  /** Chunks read and checked against their names (each once). */
  chunks: number;
  /** Files of the newest versions assembled and checked against their own hashes. */
  files: number;
  /** Fork manifests and the archived originals and payloads they name. */
  forks: number;
  objects: number;
  /** Chunks no version names (left by an interrupted keep; `archive prune` removes them). */
  unnamedChunks: number;
  problems: string[];
}

/**
 * Checks the whole archive: every kept manifest is read and validated, every chunk any version names
 * is decoded and hashed (once), the newest version of each file is assembled and checked against its
 * own sha-256, and every fork manifest and the objects it names are checked the same way. Nothing is
 * changed; a problem names the file.
 */
export function verifyArchive(archiveDir: string, agents: AgentRegistry, onProgress?: (done: number, total: number) => void): VerifyArchiveResult {
  const kept = new KeptArchive(archiveDir);
  const problems: string[] = [];
  const sessions = kept.sessions(problems);
  const named = new Map<string, number>();
  let versions = 0;
  let files = 0;
  for (const s of sessions) {
    const all = versionsOf(kept, s, problems);
    versions += all.length;
    for (const v of all) for (const f of filesOf(v.manifest)) for (const [sha, len] of f.file.chunks) named.set(sha, len);
  }
  let done = 0;
  const total = named.size + sessions.length;
  const bad = new Set<string>();
  for (const [sha, len] of named) {
    try {
      kept.chunks.get(sha, len);
    } catch (error) {
      bad.add(sha);
      problems.push((error as Error).message);
    }
    onProgress?.(++done, total);
  }
  for (const s of sessions) {
    for (const f of filesOf(s.latest)) {
      // A file with a bad chunk is already reported through the chunk.
      if (f.file.chunks.some(([sha]) => bad.has(sha))) continue;
      try {
        assemble(kept, f.file, `${s.latest.original.path}${f.part ? ` (${f.part}/${f.file.rel})` : ''}`);
        files++;
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    onProgress?.(++done, total);
  }
  const unnamedChunks = kept.chunks.list().filter((c) => !named.has(c)).length;
  const forks = verifyForks(archiveDir, agents, problems);
  return { ok: problems.length === 0, sessions: sessions.length, versions, chunks: named.size, files, forks: forks.manifests, objects: forks.objects, unnamedChunks, problems };
}

function verifyForks(archiveDir: string, agents: AgentRegistry, problems: string[]): { manifests: number; objects: number } {
  const archive = new Archive(archiveDir);
  let names: string[];
  try {
    names = readdirSync(join(archiveDir, 'forks')).filter((n) => n.endsWith('.json'));
  } catch {
    return { manifests: 0, objects: 0 };
  }
  const objects = new Set<string>();
  let manifests = 0;
  for (const n of names.sort()) {
    try {
      const m = archive.getManifest(n.slice(0, -'.json'.length), agents);
      manifests++;
      objects.add(m.original.sha256);
      for (const s of m.sidecars) objects.add(s.originalSha256);
      for (const a of m.actions) for (const r of a.removed) objects.add(r.sha256);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  for (const sha of objects) {
    try {
      archive.get(sha);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return { manifests, objects: objects.size };
}
