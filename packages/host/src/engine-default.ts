import { join } from 'node:path';
import type { AgentRegistry, ValidationReport } from '@glassbox/core';
import { agentForFile, defaultAgents } from '@glassbox/agents';
import { analyzeSession, exclusionsByReason, type AnalysisPorts } from '@glassbox/analysis';
import { nodeAnalysisPorts, scopedRepoPort } from '@glassbox/store/repo-port';
import { compactionHistories } from '@glassbox/store';
import {
  ForkError,
  LineageCache,
  planFromFile,
  previewFork,
  resumeInstruction,
  showSegment,
  undoFork,
  verifyFork,
  writeFork,
  type ForkPreview as StoreForkPreview,
  type FilePlanOptions,
  type LinesPlan,
} from '@glassbox/store/fork';
import type { ForkCheck, ForkPreview } from '@glassbox/contract';
import type { Engine, ForkInput, ForkResult } from './engine';

const LARGEST = 8;
/** A removed payload is shown up to this many characters; its size says how much there is. */
const PAYLOAD_DISPLAY_CHARS = 200_000;

/**
 * The engine host's engine: the lead's analysis, and the store's fork planner and writer (the same
 * code as `glassbox clean --fork`, `verify`, `undo` and `show`), so the app and the CLI do the same.
 */
export function defaultEngine(agents: AgentRegistry = defaultAgents()): Engine {
  const ports = nodeAnalysisPorts();
  const lineages = new Map<string, LineageCache>();
  const archiveOf = (dataDir: string): string => join(dataDir, 'archive');
  const diskless: AnalysisPorts = { ...ports, repo: { kind: () => 'unreadable', readText: () => null } };
  // The disk as the session may see it: nothing (a dropped file not mapped), only some folders (token scope), or anywhere.
  const portsFor = (o: { diskless?: boolean; readScope?: readonly string[] | null }): AnalysisPorts =>
    o.diskless ? diskless : o.readScope ? { ...ports, repo: scopedRepoPort(o.readScope) } : ports;
  const planOptions = (input: ForkInput): FilePlanOptions => {
    const o: FilePlanOptions = { repoRoot: input.repoRoot, withSpent: input.classes.includes('spent'), classes: input.classes, at: new Date(), agent: agentForFile(agents, input.path) };
    if (input.protectTail !== undefined) o.protectTail = input.protectTail;
    return o;
  };

  return {
    analyze: (input, options) =>
      analyzeSession(input.session, portsFor(options), {
        repoRoot: options.repoRoot,
        withSpent: options.withSpent,
        subagents: input.subagents,
        ...(options.model !== undefined ? { model: options.model } : {}),
      }),

    compactions: (input, options) =>
      compactionHistories(input.format, input.loaded, { repoRoot: options.repoRoot, ports: portsFor(options) }, input.source),

    previewFork(input, job) {
      // Plan from the file as it would be forked, build the fork line by line and validate it: what
      // the preview shows is what a write would produce.
      return previewOf(input, previewFork(input.path, { ...planOptions(input), ...(job ? { job } : {}) }));
    },

    writeFork(input, job) {
      const options = { ...planOptions(input), ...(job ? { job } : {}) };
      let first: LinesPlan | null = null;
      try {
        const result = writeFork({
          sourcePath: input.path,
          ...(options.agent ? { format: options.agent.format } : {}),
          ...(job ? { job } : {}),
          archiveDir: archiveOf(input.dataDir),
          prepare: (src) => {
            const planned = planFromFile(src.path, { ...options, forkSessionId: src.forkId });
            first ??= planned;
            if (planned.actions.length === 0) throw new ForkError('source_changed', planned.plan.reasons[0]?.message ?? 'There is nothing provably dead to remove.');
            return { actions: planned.actions, cwd: planned.session.cwd, indexed: planned.indexed, session: planned.session };
          },
        });
        if (result.status === 'refused') {
          const checks = checksOf(result.report);
          return { ok: false, checks, message: 'The fork failed validation.' };
        }
        const planned = first as LinesPlan | null;
        const resume = resumeInstruction({ cwd: planned?.session.cwd ?? null, mapped: input.repoRoot, sessionId: result.forkId, sessionPath: result.forkPath, format: (options.agent ?? agents.byId(null)).format });
        return {
          ok: true,
          value: {
            sessionId: result.forkId,
            path: result.forkPath,
            resumeCommand: resume.command,
            resumeNote: resume.note,
            checks: checksOf(result.report),
            netReclaimed: planned?.plan.totals.netReclaimed ?? 0,
          },
        };
      } catch (error) {
        if (error instanceof ForkError) return { ok: false, checks: [], message: error.message };
        throw error;
      }
    },

    lineage(dataDir) {
      const root = archiveOf(dataDir);
      let cache = lineages.get(root);
      if (!cache) {
        cache = new LineageCache(root);
        lineages.set(root, cache);
      }
      return cache.get();
    },

    verifyFork(forkPath, dataDir, job) {
      return attempt(() => {
        const v = verifyFork(forkPath, { archiveDir: archiveOf(dataDir), ...(job ? { job } : {}) });
        return {
          ok: v.report.ok && v.unchanged,
          unchanged: v.unchanged,
          appendedLines: v.appendedLines,
          originalOnDisk: v.originalOnDisk,
          originalPath: v.manifest.original.path,
          checks: checksOf(v.report),
        };
      });
    },

    undoFork(forkPath, dataDir, mapped, job) {
      return attempt(() => {
        const r = undoFork(forkPath, { archiveDir: archiveOf(dataDir), ...(job ? { job } : {}) });
        const resume = resumeInstruction({ cwd: r.manifest.cwd, mapped: mapped(r.manifest.cwd), sessionId: r.sessionId, sessionPath: r.path, format: agentForFile(agents, r.path).format });
        return { sessionId: r.sessionId, path: r.path, resumeCommand: resume.command, resumeNote: resume.note, checks: checksOf(r.report), netReclaimed: 0 };
      });
    },

    forkPayload(forkPath, segmentId, dataDir) {
      return attempt(() => {
        const shown = showSegment(forkPath, segmentId, { archiveDir: archiveOf(dataDir) });
        const first = shown[0];
        if (!first) throw new ForkError('segment_not_found', `the fork removed nothing the model saw at ${segmentId}`);
        const bytes = Buffer.byteLength(first.text, 'utf8');
        const truncated = first.text.length > PAYLOAD_DISPLAY_CHARS;
        return { segmentId: first.segmentId, sha256: first.sha256, tombstone: first.tombstone ?? null, text: truncated ? first.text.slice(0, PAYLOAD_DISPLAY_CHARS) : first.text, bytes, truncated };
      });
    },
  };
}

/** A fork operation, with its failure in the CLI's words (a fork or segment that does not exist is bad input). */
function attempt<T>(run: () => T): ForkResult<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (!(error instanceof ForkError)) throw error;
    const bad = error.code === 'not_a_fork' || error.code === 'segment_not_found' || error.code === 'source_unreadable';
    return { ok: false, bad, message: error.message };
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

function previewOf(input: ForkInput, preview: StoreForkPreview): ForkPreview {
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
