import type { AgentRegistry } from '@glassbox/core';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Archive } from './archive';
import type { ForkManifest } from './manifest';

/** One fork (or restored original) as its manifest in the archive records it. */
export interface LineageEntry {
  forkId: string;
  forkPath: string;
  kind: ForkManifest['kind'];
  createdAt: string;
  original: { path: string; sessionId: string };
  /** For a restored original: the fork it was restored from. */
  restoredFrom: string | null;
  actions: number;
  tokensFreed: number;
  tombstoneTokens: number;
  /** Lines the fork had when written: a response on a later line is the fork's own. */
  forkLines: number;
}

/** Which sessions are forks of which: read from the manifests Glassbox keeps in its archive. */
export interface ForkLineage {
  byForkId: ReadonlyMap<string, LineageEntry>;
  /** The forks of an original, by the original's session id, oldest first. */
  forksOf: ReadonlyMap<string, LineageEntry[]>;
  /** Manifests that could not be read, with why (a damaged one never stops the others). */
  problems: string[];
}

/**
 * Reads every fork manifest in an archive. The fork's own file is never opened: a fork knows it is
 * one from the archive, as `verify` and `undo` do.
 */
export function forkLineage(archiveRoot: string, agents: AgentRegistry): ForkLineage {
  const archive = new Archive(archiveRoot);
  const byForkId = new Map<string, LineageEntry>();
  const forksOf = new Map<string, LineageEntry[]>();
  const problems: string[] = [];
  let names: string[];
  try {
    names = readdirSync(join(archiveRoot, 'forks')).filter((n) => n.endsWith('.json'));
  } catch {
    return { byForkId, forksOf, problems };
  }
  for (const name of names.sort()) {
    let m: ForkManifest;
    try {
      m = archive.getManifest(name.slice(0, -'.json'.length), agents);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    const entry: LineageEntry = {
      forkId: m.forkId,
      forkPath: m.forkPath,
      kind: m.kind,
      createdAt: m.createdAt,
      original: { path: m.original.path, sessionId: m.original.sessionId },
      restoredFrom: m.restoredFrom ?? null,
      actions: m.actions.length,
      tokensFreed: m.totals.tokensFreed,
      tombstoneTokens: m.totals.tombstoneTokens,
      forkLines: m.fork.lines,
    };
    byForkId.set(entry.forkId, entry);
    const list = forksOf.get(entry.original.sessionId) ?? [];
    list.push(entry);
    forksOf.set(entry.original.sessionId, list);
  }
  for (const list of forksOf.values()) list.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return { byForkId, forksOf, problems };
}

/**
 * The window a fork will send, until it is resumed: its last reported usage is still the original's
 * request, so the estimate is that figure minus what the fork removed (net of its tombstones). Null for
 * anything but a fork not resumed since it was written (a response after its written lines is its own).
 */
export function forkWillSend(entry: LineageEntry | undefined, reportedTokens: number | null, lastResponseLine: number): { estimatedTokens: number; originalReportedTokens: number } | null {
  if (!entry || entry.kind !== 'clean' || reportedTokens === null || lastResponseLine > entry.forkLines) return null;
  return { estimatedTokens: Math.max(0, reportedTokens - (entry.tokensFreed - entry.tombstoneTokens)), originalReportedTokens: reportedTokens };
}

/** A lineage that is read again only when the archive's forks folder changed. */
export class LineageCache {
  private stamp = '';
  private value: ForkLineage | null = null;

  constructor(
    private readonly archiveRoot: string,
    private readonly agents: AgentRegistry,
  ) {}

  get(): ForkLineage {
    let stamp = 'none';
    try {
      const st = statSync(join(this.archiveRoot, 'forks'));
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      // No fork written yet.
    }
    if (!this.value || stamp !== this.stamp) {
      this.value = forkLineage(this.archiveRoot, this.agents);
      this.stamp = stamp;
    }
    return this.value;
  }
}
