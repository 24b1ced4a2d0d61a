import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildFork, validateFork, type ValidationReport } from '@glassbox/adapter-claude-code';
import { analyzeSession, planEviction } from '@glassbox/analysis';
import { nodeAnalysisPorts } from './ports';
import type { ClassifiedSnapshot, EvictionPlan } from '@glassbox/core';
import type { ForkCheck, ForkPreview } from '../shared/ipc-contract';
import type { Engine, ForkInput } from './engine';
import { archiveBytes, writeForkFile } from './fork-writer';

const LARGEST = 8;

/** The engine host's engine: the real analysis, planner, fork builder and validator. */
export function defaultEngine(): Engine {
  const ports = nodeAnalysisPorts();
  const analyze: Engine['analyze'] = (input, options) =>
    analyzeSession(input.session, ports, { repoRoot: options.repoRoot, withSpent: options.withSpent, subagents: input.subagents });

  /** Plan → fork in memory → differential validation. Shared by preview and write, so what is shown is what is written. */
  const prepare = (input: ForkInput) => {
    const snapshot: ClassifiedSnapshot =
      input.protectTail === undefined
        ? input.snapshot
        : analyzeSession(input.session, ports, {
            repoRoot: input.snapshot.session.repoRoot,
            withSpent: input.classes.includes('spent'),
            protectTail: input.protectTail,
          });
    const plan = planEviction(snapshot, { classes: input.classes });
    const bytes = readFileSync(input.path);
    const lines = splitLines(bytes.toString('utf8'));
    const newSessionId = randomUUID();
    const fork = buildFork(lines, plan.actions, newSessionId);
    const applied = fork.applied.map((a) => a.action);
    const report = validateFork(lines, fork.lines, { actions: applied, touchedLines: fork.touchedLines });
    return { snapshot, plan, bytes, fork, report, newSessionId };
  };

  return {
    analyze,
    previewFork(input) {
      const p = prepare(input);
      return previewOf(input, p.snapshot, p.plan, p.report, p.fork.refused.length);
    },
    writeFork(input) {
      const p = prepare(input);
      const preview = previewOf(input, p.snapshot, p.plan, p.report, p.fork.refused.length);
      if (!preview.canWrite) {
        return { ok: false, checks: preview.checks, message: preview.reasons[0] ?? 'A check failed.' };
      }
      // The source must not have changed while the fork was prepared.
      const now = readFileSync(input.path);
      if (!now.equals(p.bytes)) {
        return { ok: false, checks: preview.checks, message: 'The session changed while the fork was prepared; preview it again.' };
      }
      archiveBytes(input.dataDir, p.bytes);
      const text = p.fork.lines.join('\n') + (p.bytes[p.bytes.length - 1] === 10 ? '\n' : '');
      const path = writeForkFile(input.path, p.newSessionId, text);
      return {
        ok: true,
        value: {
          sessionId: p.newSessionId,
          path,
          resumeCommand: `claude --resume ${p.newSessionId}`,
          checks: preview.checks,
          netReclaimed: p.plan.totals.netReclaimed,
        },
      };
    },
  };
}

function previewOf(input: ForkInput, snapshot: ClassifiedSnapshot, plan: EvictionPlan, report: ValidationReport, refused: number): ForkPreview {
  const before = snapshot.context.reportedTokens ?? snapshot.context.estimatedTokens;
  const checks: ForkCheck[] = report.checks.map((c) => ({
    id: c.id,
    label: c.title,
    ok: c.ok,
    detail: c.ok ? 'passes' : c.failures.slice(0, 3).map((f) => (f.line ? `line ${f.line}: ${f.detail}` : f.detail)).join('; ') + (c.more ? ` (+${c.more} more)` : ''),
  }));
  checks.unshift({
    id: 'plan',
    label: 'there is something provably dead to remove',
    ok: plan.actions.length > 0,
    detail: plan.actions.length > 0 ? `${plan.actions.length} payloads` : (plan.reasons[0]?.message ?? 'nothing to remove'),
  });
  if (refused > 0) {
    checks.push({ id: 'refused', label: 'every planned removal applies exactly', ok: true, detail: `${refused} removal(s) could not be applied exactly and were left in place` });
  }
  const reasons = [...plan.reasons.map((r) => r.message), ...checks.filter((c) => !c.ok).map((c) => `${c.label}: ${c.detail}`)];
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

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
