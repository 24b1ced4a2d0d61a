import { DEFAULT_FORK_CLASSES, deathReason, type ClassifiedSnapshot, type DeadProof, type DeadClass } from '@glassbox/core';
import { splitPathLabel } from './labels';

/** One row of "What to remove": a dead segment, what it frees, its file name first and its proof in one line. */
export interface DeadRow {
  id: string;
  cls: DeadClass;
  /** What a tombstone frees (the segment's evictable tokens). */
  tokens: number;
  name: string;
  folder: string;
  proof: string;
}

/**
 * The dead segments the window shows, ranked by what removing them frees (largest first; ties by
 * position in the transcript): what the fork's plan removes, before its small-payload cut-off.
 * Protected segments (the tail, errors) are left out: a fork never removes them. `classes`: the
 * fork's (default: the proven ones it removes unless told otherwise).
 */
export function deadRows(snapshot: Pick<ClassifiedSnapshot, 'segments'>, classes: readonly DeadClass[] = DEFAULT_FORK_CLASSES): DeadRow[] {
  const wanted = new Set<string>(classes);
  const rows: (DeadRow & { line: number })[] = [];
  for (const s of snapshot.segments) {
    if (!wanted.has(s.class) || s.protected || s.evictableTokens <= 0) continue;
    const label = splitPathLabel(s.source.label);
    const proof = s.proof && s.proof.class === s.class ? deathReason(s.proof as DeadProof, label.name) : s.class;
    rows.push({ id: s.id, cls: s.class as DeadClass, tokens: s.evictableTokens, name: label.name, folder: label.rest, proof, line: s.line });
  }
  rows.sort((a, b) => b.tokens - a.tokens || a.line - b.line);
  return rows.map(({ line: _line, ...r }) => r);
}

/** The next (or, backwards, previous) dead row after the selected segment, wrapping around; the first when none is selected. */
export function stepDead(rows: readonly DeadRow[], selectedId: string | null, backwards: boolean): DeadRow | null {
  if (rows.length === 0) return null;
  const at = selectedId === null ? -1 : rows.findIndex((r) => r.id === selectedId);
  if (at < 0) return (backwards ? rows[rows.length - 1] : rows[0]) ?? null;
  const next = (at + (backwards ? rows.length - 1 : 1)) % rows.length;
  return rows[next] ?? null;
}
