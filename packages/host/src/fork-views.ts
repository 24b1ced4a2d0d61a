import type { DeadClass, ValidationReport } from '@glassbox/core';
import { exclusionsByReason } from '@glassbox/analysis';
import type { ElideArgs, ElisionPreview, ForkCheck, ForkPayload, ForkPreview, ForkRemoved, ForkVerified, ForkWritten } from '@glassbox/contract';
import { refusalOf, type ForkJob, type ForkPreview as PlannedPreview, type Glassbox } from '@glassbox/engine';

const LARGEST = 8;
/** What the engine names an elision's middle among a fork's removed payloads (`show`). */
const ELIDED_MIDDLE = 'elided middle';
/** A removed payload is shown up to this many characters; its size says how much there is. */
const PAYLOAD_DISPLAY_CHARS = 200_000;

export interface ForkInput {
  /** The session file (its real path). */
  path: string;
  /** The folder its working directory is mapped to on this machine; null for the recorded one. */
  repoRoot: string | null;
  classes: DeadClass[];
  protectTail: number | undefined;
  /** Elision's thresholds (only when `classes` has `elided`); absent: the defaults. */
  elide?: ElideArgs;
}

/** What the elision step asks: a session, its thresholds and the protected tail. */
export type ElisionInput = Omit<ForkInput, 'classes'>;

/** A fork operation's value, or why it failed (`bad`: what was named does not exist). */
export type ForkResult<T> = { ok: true; value: T } | { ok: false; bad: boolean; message: string };

/** What writing a fork answers the window: written, or why not (its failing checks, or nothing to remove). */
export type ForkWriteAnswer = { ok: true; value: ForkWritten } | { ok: false; checks: ForkCheck[]; message: string; nothingToRemove?: boolean };

/**
 * The window's fork channels over the application layer: the same use cases `glassbox clean --fork`,
 * `verify`, `undo`, `write-original` and `show` call, their answers shaped as the contract's values.
 */
export class ForkViews {
  constructor(private readonly glassbox: Glassbox) {}

  private request(input: ForkInput, job?: ForkJob) {
    return { ...this.elisionRequest(input, job), classes: input.classes };
  }

  private elisionRequest(input: ElisionInput, job?: ForkJob) {
    return {
      path: input.path,
      repoRootFor: () => input.repoRoot,
      ...(input.protectTail !== undefined ? { protectTail: input.protectTail } : {}),
      ...(input.elide ? { elide: { overTokens: input.elide.overTokens, keep: { chars: input.elide.keepChars, lines: input.elide.keepLines } } } : {}),
      ...(job ? { job } : {}),
    };
  }

  /** The elision step: what elision alone would shorten, with the three largest as the fork would write them. */
  elisionPreview(input: ElisionInput, job?: ForkJob): ForkResult<ElisionPreview> {
    return attempt(() => {
      const got = this.glassbox.forks.elisionSamples(this.elisionRequest(input, job));
      return { ...got, elide: { overTokens: got.elide.overTokens, keepChars: got.elide.keep.chars, keepLines: got.elide.keep.lines } };
    });
  }

  preview(input: ForkInput, job?: ForkJob): ForkPreview {
    return previewOf(input, this.glassbox.forks.preview(this.request(input, job)));
  }

  write(input: ForkInput, job?: ForkJob): ForkWriteAnswer {
    try {
      const outcome = this.glassbox.forks.write(this.request(input, job));
      if (outcome.status === 'nothing-to-remove') {
        return { ok: false, checks: [], message: outcome.plan.plan.reasons[0]?.message ?? 'There is nothing provably dead to remove.', nothingToRemove: true };
      }
      if (outcome.status === 'refused') return { ok: false, checks: checksOf(outcome.refused.report), message: 'The fork failed validation.' };
      const { written, resume, plan } = outcome;
      return {
        ok: true,
        value: {
          sessionId: written.forkId,
          path: written.forkPath,
          resumeCommand: resume.command,
          resumeNote: resume.note,
          checks: checksOf(written.report),
          netReclaimed: plan.plan.totals.netReclaimed,
        },
      };
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) return { ok: false, checks: [], message: refusal.message };
      throw error;
    }
  }

  verify(forkPath: string, job?: ForkJob): ForkResult<ForkVerified> {
    return attempt(() => {
      const v = this.glassbox.forks.verify(forkPath, job);
      return {
        ok: v.report.ok && v.unchanged,
        unchanged: v.unchanged,
        appendedLines: v.appendedLines,
        originalOnDisk: v.originalOnDisk,
        originalPath: v.manifest.original.path,
        checks: checksOf(v.report),
      };
    });
  }

  undo(forkPath: string, mapped: (cwd: string | null) => string | null, job?: ForkJob): ForkResult<ForkWritten> {
    return attempt(() => {
      const { undone, resume } = this.glassbox.forks.undo(forkPath, mapped, job);
      return { sessionId: undone.sessionId, path: undone.path, resumeCommand: resume.command, resumeNote: resume.note, checks: checksOf(undone.report), netReclaimed: 0 };
    });
  }

  /** Undo: the fork moved, with its side files, into the archive. */
  remove(forkPath: string): ForkResult<ForkRemoved> {
    return attempt(() => {
      const r = this.glassbox.forks.remove(forkPath);
      return { sessionId: r.forkId, path: r.path, originalPath: r.originalPath, files: r.removed.length, restoreCommand: r.restoreCommand };
    });
  }

  payload(forkPath: string, segmentId: string): ForkResult<ForkPayload> {
    return attempt(() => {
      const first = this.glassbox.forks.show(forkPath, segmentId)[0];
      if (!first) throw new NotRemoved(segmentId);
      const bytes = Buffer.byteLength(first.text, 'utf8');
      const truncated = first.text.length > PAYLOAD_DISPLAY_CHARS;
      const kind = first.path === ELIDED_MIDDLE ? 'elided-middle' : 'payload';
      return { segmentId: first.segmentId, sha256: first.sha256, tombstone: first.tombstone ?? null, text: truncated ? first.text.slice(0, PAYLOAD_DISPLAY_CHARS) : first.text, bytes, truncated, kind };
    });
  }
}

class NotRemoved extends Error {
  constructor(segmentId: string) {
    super(`the fork removed nothing the model saw at ${segmentId}`);
  }
}

/** A fork operation, with its failure in the CLI's words. */
function attempt<T>(run: () => T): ForkResult<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof NotRemoved) return { ok: false, bad: true, message: error.message };
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return { ok: false, bad: refusal.bad, message: refusal.message };
  }
}

function checksOf(report: ValidationReport): ForkCheck[] {
  return report.checks.map((c) => ({
    id: c.id,
    label: c.title,
    ok: c.ok,
    detail: c.ok
      ? 'passes'
      : c.failures
          .slice(0, 3)
          .map((f) => (f.line ? `line ${f.line}: ${f.detail}` : f.detail))
          .join('; ') + (c.more ? ` (+${c.more} more)` : ''),
  }));
}

function previewOf(input: ForkInput, preview: PlannedPreview): ForkPreview {
  const { planned, fork, report } = preview;
  const { snapshot, plan } = planned;
  const before = snapshot.context.reportedTokens ?? snapshot.context.estimatedTokens;
  const checks = report ? checksOf(report) : [];
  checks.unshift({
    id: 'plan',
    label: 'there is something provably dead to remove',
    ok: plan.actions.length > 0,
    detail: plan.actions.length > 0 ? `${plan.actions.length} payload(s)` : (plan.reasons[0]?.message ?? 'nothing to remove'),
  });
  const refused = fork?.refused.length ?? 0;
  if (refused > 0) {
    checks.push({ id: 'refused', label: 'every planned removal applies exactly', ok: true, detail: `${refused} removal(s) could not be applied exactly and are left in place` });
  }
  const reasons = [...plan.reasons.map((r) => r.message), ...checks.filter((c) => !c.ok && c.id !== 'plan').map((c) => `${c.label}: ${c.detail}`)];
  return {
    sessionId: snapshot.session.id,
    classes: input.classes,
    tokensBefore: before,
    tokensAfter: Math.max(0, before - plan.totals.netReclaimed),
    reclaimed: plan.totals.reclaimable,
    tombstoneTokens: plan.totals.tombstoneTokens,
    netReclaimed: plan.totals.netReclaimed,
    actions: plan.actions.length,
    largest: plan.actions.slice(0, LARGEST).map((a) => ({ segmentId: a.segmentId, line: a.line, class: a.class, source: a.sourceLabel, tokensFreed: a.tokensFreed })),
    reasons,
    checks,
    canWrite: checks.every((c) => c.ok),
    excluded: exclusionsByReason(plan).map((g) => {
      const first = g.items[0];
      const message = first ? (g.reason === 'refused-by-fork' ? `${first.forkCode ?? ''}: ${first.message}` : first.message) : '';
      return { reason: g.reason, segments: g.segments, tokens: g.tokens, message };
    }),
    economics: planned.economics,
  };
}
