import type { ClassifiedSnapshot } from '@glassbox/core';
import type { ForkLineageView, SessionLink, SessionRow } from '@glassbox/contract';
import { forkWillSend, type ForkLineage, type LineageEntry } from '@glassbox/engine';

/**
 * Which sessions are forks of which, for the list and the window: from the manifests Glassbox keeps in
 * its archive (a fork never has to be opened to know it is one).
 */
/** `all`: every row, asked for only when a link needs another session's title (a list of thousands is not read twice). */
export function rowsWithLineage(rows: SessionRow[], lineage: ForkLineage, all: () => readonly SessionRow[]): SessionRow[] {
  if (lineage.byForkId.size === 0) return rows;
  const titles = new Map(all().map((r) => [r.id, r.title]));
  for (const r of rows) titles.set(r.id, r.title);
  return rows.map((r) => {
    const view = linksOf(r.id, lineage, (id) => titles.get(id) ?? null);
    return { ...r, fork: view.forkOf !== null, forkOf: view.forkOf, forks: view.forks };
  });
}

/** What the lineage needs of a snapshot: its session, its reported context, and its last turn's line. */
export interface SnapshotHead {
  sessionId: string;
  reportedTokens: number | null;
  lastTurnLine: number;
}

export function snapshotHead(snapshot: ClassifiedSnapshot): SnapshotHead {
  return { sessionId: snapshot.session.id, reportedTokens: snapshot.context.reportedTokens, lastTurnLine: snapshot.turns.at(-1)?.line ?? 0 };
}

export function snapshotLineage(head: SnapshotHead, lineage: ForkLineage, all: () => readonly SessionRow[]): ForkLineageView {
  let titles: Map<string, string | null> | null = null;
  const title = (id: string): string | null => (titles ??= new Map(all().map((r) => [r.id, r.title]))).get(id) ?? null;
  const { forkOf, forks } = linksOf(head.sessionId, lineage, title);
  const willSend = forkWillSend(lineage.byForkId.get(head.sessionId), head.reportedTokens, head.lastTurnLine);
  return { forkOf, forks, willSend };
}

function link(e: LineageEntry, sessionId: string, path: string, title: (id: string) => string | null): SessionLink {
  return { sessionId, path, title: title(sessionId), createdAt: e.createdAt, kind: e.kind };
}

/** A session's place in the archive's lineage: what it was forked from (or restored from), and its forks. */
function linksOf(id: string, lineage: ForkLineage, title: (id: string) => string | null): { forkOf: SessionLink | null; forks: SessionLink[] } {
  const own = lineage.byForkId.get(id);
  let forkOf: SessionLink | null = null;
  if (own?.kind === 'clean') forkOf = link(own, own.original.sessionId, own.original.path, title);
  else if (own?.kind === 'undo' && own.restoredFrom) {
    const from = lineage.byForkId.get(own.restoredFrom);
    if (from) forkOf = link(own, from.forkId, from.forkPath, title);
  }
  const forks = (lineage.forksOf.get(id) ?? []).filter((e) => e.kind === 'clean').map((e) => link(e, e.forkId, e.forkPath, title));
  return { forkOf, forks };
}

