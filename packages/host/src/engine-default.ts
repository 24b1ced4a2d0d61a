import { join } from 'node:path';
import { buildFork, validateFork, type ValidationReport } from '@glassbox/adapter-claude-code';
import { analyzeSession } from '@glassbox/analysis';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { ForkError, planFromLines, readSource, writeFork, type LinesPlan, type PlanLinesOptions } from '@glassbox/store/fork';
import type { ForkCheck, ForkPreview } from '@glassbox/contract';
import type { Engine, ForkInput } from './engine';

const LARGEST = 8;
/** The preview's fork is never written; its id only has to be well-formed. */
const PREVIEW_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The engine host's engine: the lead's analysis, and the store's fork planner and writer (the same
 * code as `glassbox clean --fork`), so the app and the CLI write identical forks.
 */
export function defaultEngine(): Engine {
  const ports = nodeAnalysisPorts();
  const planOptions = (input: ForkInput): PlanLinesOptions => {
    const o: PlanLinesOptions = { repoRoot: input.snapshot.session.repoRoot, withSpent: input.classes.includes('spent'), classes: input.classes };
    if (input.protectTail !== undefined) o.protectTail = input.protectTail;
    return o;
  };

  return {
    analyze: (input, options) =>
      analyzeSession(input.session, ports, {
        repoRoot: options.repoRoot,
        withSpent: options.withSpent,
        subagents: input.subagents,
        ...(options.model !== undefined ? { model: options.model } : {}),
      }),

    previewFork(input) {
      // Plan from the exact lines that would be forked, build the fork in memory and validate it: what
      // the preview shows is what a write would produce.
      const source = readSource(input.path);
      const planned = planFromLines(input.path, source.lines, planOptions(input));
      const fork = buildFork(source.lines, planned.actions, PREVIEW_ID);
      const report = validateFork(source.lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
      return previewOf(input, planned, report, fork.refused.length);
    },

    writeFork(input) {
      const options = planOptions(input);
      let first: LinesPlan | null = null;
      try {
        const result = writeFork({
          sourcePath: input.path,
          archiveDir: join(input.dataDir, 'archive'),
          prepare: (src) => {
            const planned = planFromLines(input.path, src.lines, options);
            first ??= planned;
            if (planned.actions.length === 0) throw new ForkError('source_changed', planned.plan.reasons[0]?.message ?? 'There is nothing provably dead to remove.');
            return { actions: planned.actions, cwd: planned.session.cwd };
          },
        });
        if (result.status === 'refused') {
          const checks = checksOf(result.report);
          return { ok: false, checks, message: 'The fork failed validation.' };
        }
        const netReclaimed = (first as LinesPlan | null)?.plan.totals.netReclaimed ?? 0;
        return {
          ok: true,
          value: {
            sessionId: result.forkId,
            path: result.forkPath,
            resumeCommand: resumeCommand((first as LinesPlan | null)?.session.cwd ?? null, result.forkId),
            checks: checksOf(result.report),
            netReclaimed,
          },
        };
      } catch (error) {
        if (error instanceof ForkError) return { ok: false, checks: [], message: error.message };
        throw error;
      }
    },
  };
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

function previewOf(input: ForkInput, planned: LinesPlan, report: ValidationReport, refused: number): ForkPreview {
  const { snapshot, plan } = planned;
  const before = snapshot.context.reportedTokens ?? snapshot.context.estimatedTokens;
  const checks = checksOf(report);
  checks.unshift({
    id: 'plan',
    label: 'there is something provably dead to remove',
    ok: plan.actions.length > 0,
    detail: plan.actions.length > 0 ? `${plan.actions.length} payload(s)` : (plan.reasons[0]?.message ?? 'nothing to remove'),
  });
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
  };
}

/** Run from the project folder, where Claude Code looks for the session. */
export function resumeCommand(cwd: string | null, id: string): string {
  if (!cwd) return `claude --resume ${id}`;
  const q = /^[A-Za-z0-9_./:@%+=-]+$/.test(cwd) ? cwd : `'${cwd.replace(/'/g, `'\\''`)}'`;
  return `cd ${q} && claude --resume ${id}`;
}
