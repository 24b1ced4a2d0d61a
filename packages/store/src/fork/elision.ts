import { ELISION_PENDING, elidedMiddle, elidedText, elisionProblem, splitForElision, type AppliedAction, type CheckResult, type ElisionKeep, type TombstoneFill, type ValidationReport } from '@glassbox/core';
import { sha256Hex } from './archive';

/**
 * Elision in a fork: the plan holds ELISION_PENDING for each `elided` action (it sees sizes, not
 * payloads); the fork builder's fill cuts the head and tail from the very text it replaces and names
 * the middle's hash, the validator's extra check proves it, and the writer archives the middle.
 */

/** The payload of a result made of content blocks (an MCP result's parts): its JSON, never cut. */
const BLOCKS = /^\[\s*\{\s*"type"\s*:/;

/**
 * The fill of an elided action: head, marker and tail of what it replaces. A payload that cannot be
 * elided (no middle worth a marker, or content blocks rather than text) gets its own text back, which
 * the builder refuses as not smaller, so the plan lists it as refused by the fork.
 */
export function elisionFill(keep: ElisionKeep): TombstoneFill {
  return (action) => {
    if (action.tombstone !== ELISION_PENDING) return null;
    return (removed) => {
      if (BLOCKS.test(removed.text)) return removed.text;
      const split = splitForElision(removed.text, keep);
      return split ? elidedText(split, sha256Hex(split.middle)) : removed.text;
    };
  };
}

/** The first fill of `fills` that has something to say about an action. */
export function firstFill(...fills: TombstoneFill[]): TombstoneFill {
  return (action) => {
    for (const f of fills) {
      const got = f(action);
      if (got) return got;
    }
    return null;
  };
}

/** True for an applied action that elided its payload (rather than tombstoning it). */
function isElision(a: AppliedAction): boolean {
  return (a.action as { class?: string }).class === 'elided';
}

function sentPayload(a: AppliedAction): string | null {
  return a.removed.find((r) => r.sentToModel)?.text ?? null;
}

/**
 * The validator's check of every elision: its head and tail are exact ends of the payload it
 * replaces, and its marker names the sha-256 of exactly the middle (which the archive will hold).
 */
export function elisionCheck(applied: readonly AppliedAction[]): CheckResult | null {
  const elisions = applied.filter(isElision);
  if (elisions.length === 0) return null;
  const failures: CheckResult['failures'] = [];
  for (const a of elisions) {
    const original = sentPayload(a);
    const problem = original === null ? 'no payload the model saw was replaced' : elisionProblem(original, a.action.tombstone, sha256Hex);
    if (problem) failures.push({ line: a.line, uuid: a.action.uuid, detail: `elision of ${a.action.segmentId ?? a.action.uuid}: ${problem}` });
  }
  const shown = failures.slice(0, 20);
  return { id: 'elisions', title: 'elisions keep exact ends and name their archived middle', ok: failures.length === 0, failures: shown, more: failures.length - shown.length };
}

/** The report with the elision check added (a failure refuses the fork like any other check). */
export function withElisionCheck(report: ValidationReport, applied: readonly AppliedAction[]): ValidationReport {
  const check = elisionCheck(applied);
  if (!check) return report;
  return { ...report, ok: report.ok && check.ok, checks: [...report.checks, check] };
}

/** The middles the fork's elisions removed: archived beside the whole payloads, named by their hash. */
export function elidedMiddles(applied: readonly AppliedAction[]): string[] {
  const out: string[] = [];
  for (const a of applied.filter(isElision)) {
    const original = sentPayload(a);
    const got = original === null ? null : elidedMiddle(original, a.action.tombstone, sha256Hex);
    if (got) out.push(got.middle);
  }
  return out;
}

/** What the manifest records of an elision: the middle's full hash, its size and lines. */
export function elisionOf(a: AppliedAction): { sha256: string; bytes: number; lines: number } | null {
  if (!isElision(a)) return null;
  const original = sentPayload(a);
  const got = original === null ? null : elidedMiddle(original, a.action.tombstone, sha256Hex);
  if (!got) return null;
  const lines = got.middle.split('\n').length - (got.middle.endsWith('\n') ? 1 : 0);
  return { sha256: sha256Hex(got.middle), bytes: Buffer.byteLength(got.middle, 'utf8'), lines };
}
