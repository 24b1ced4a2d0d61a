import { basename } from 'node:path';
import type { ClassifiedSnapshot, DeadClass, EvictionPlan, ForkEconomics, ForkResult, Session } from '@glassbox/core';
import { buildFork, claudeCodeFormat, parseLines, sha256 } from '@glassbox/adapter-claude-code';
import { analyzeSession, cacheModel, economicsOf, planEviction, withRefusals, type PlanOptions, type PriceTable } from '@glassbox/analysis';
import { nodeAnalysisPorts } from '../repo-port';
import type { PlanAction } from './writer';

/** The id a preview fork carries: it is never written, so any fixed new id does. */
export const PREVIEW_SESSION_ID = '00000000-0000-4000-8000-000000000000';

export interface PlanLinesOptions {
  repoRoot?: string | null;
  /** The folder to check the disk in, from the session's recorded cwd (a saved mapping); `repoRoot` wins. */
  repoRootFor?: (cwd: string | null) => string | null;
  withSpent?: boolean;
  protectTail?: number;
  classes?: readonly DeadClass[];
  minimumSavings?: number;
  subagents?: Session[];
  /** The model of the next request (decides which reasoning is resident); default: the client's choice. */
  model?: string;
  /** The moment the prompt-cache figures are for (default: now). */
  at?: Date;
  /** Plan the subset of evictions with the lowest cost over the next N requests. */
  horizon?: number;
  /** The prices the cache figures use (default: the agent's list prices). */
  prices?: PriceTable;
}

export interface LinesPlan {
  session: Session;
  snapshot: ClassifiedSnapshot;
  /** The plan as the fork will apply it: actions the fork layer cannot apply exactly are in `excluded`. */
  plan: EvictionPlan;
  actions: PlanAction[];
  /** What forking with this plan costs under the prompt cache, as of `at`. */
  economics: ForkEconomics;
  /** The fork built in memory (with PREVIEW_SESSION_ID); null when there is nothing to remove. */
  fork: ForkResult | null;
}

/**
 * Analyses and plans from the exact lines that will be forked (not a second read of the file), so
 * that every action's line and uuid match the bytes the fork is built from. The fork is built once
 * in memory: what it cannot apply exactly leaves the plan with its reason.
 */
export function planFromLines(path: string, lines: readonly string[], options: PlanLinesOptions = {}): LinesPlan {
  const session = parseLines(lines, path, basename(path).replace(/\.jsonl$/i, ''));
  const repoRoot = options.repoRoot ?? options.repoRootFor?.(session.cwd) ?? null;
  const analyzeOptions: Parameters<typeof analyzeSession>[2] = { repoRoot, withSpent: options.withSpent === true };
  if (options.protectTail !== undefined) analyzeOptions.protectTail = options.protectTail;
  if (options.subagents) analyzeOptions.subagents = options.subagents;
  if (options.model !== undefined) analyzeOptions.model = options.model;
  const snapshot = analyzeSession(session, nodeAnalysisPorts(), analyzeOptions);
  const cache = cacheModel(snapshot, { at: options.at ?? new Date(), prices: options.prices ?? claudeCodeFormat.prices });
  const planOptions: PlanOptions = {};
  if (options.classes) planOptions.classes = options.classes;
  if (options.minimumSavings !== undefined) planOptions.minimumSavings = options.minimumSavings;
  if (options.horizon !== undefined) planOptions.horizon = { requests: options.horizon, cache };
  let plan = planEviction(snapshot, planOptions);
  let actions: PlanAction[] = plan.actions.map((a) => {
    const out: PlanAction = {
      uuid: a.uuid,
      line: a.line,
      blockIndex: a.blockIndex,
      target: a.target,
      tombstone: a.tombstone,
      segmentId: a.segmentId,
      class: a.class,
      tokensFreed: a.tokensFreed,
      tombstoneTokens: a.tombstoneTokens,
    };
    if (a.toolUseId !== undefined) out.toolUseId = a.toolUseId;
    return out;
  });
  fillMissingHashes(lines, actions);
  let fork: ForkResult | null = null;
  if (actions.length > 0) {
    fork = buildFork(lines, actions, PREVIEW_SESSION_ID);
    const refused = fork.refused.map((r) => ({ segmentId: r.action.segmentId ?? '', code: r.code, message: r.message }));
    plan = withRefusals(plan, refused);
    const dropped = new Set(refused.map((r) => r.segmentId));
    actions = actions.filter((a) => !dropped.has(a.segmentId ?? ''));
    // The tombstone text as written (a hash filled in here) is what the plan reports.
    const text = new Map(actions.map((a) => [a.segmentId, a.tombstone]));
    plan = { ...plan, actions: plan.actions.map((a) => ({ ...a, tombstone: text.get(a.segmentId) ?? a.tombstone })) };
  }
  const economics = economicsOf(cache, plan);
  if (plan.horizon) plan = { ...plan, horizon: { ...plan.horizon, economics } };
  return { session, snapshot, plan, actions, economics, fork };
}

const EMPTY_HASH = /sha256 \]$/;

/**
 * A tombstone names the sha-256 of what it replaces, so `glassbox show` can find it by the prefix
 * it prints. The analysis knows the hash only of payloads it hashed (results, Write contents); for
 * the others (an Edit's new_string) it is taken here from the bytes the fork will remove.
 */
function fillMissingHashes(lines: readonly string[], actions: PlanAction[]): void {
  const missing = actions.filter((a) => EMPTY_HASH.test(a.tombstone));
  if (missing.length === 0) return;
  const copies = missing.map((a) => ({ ...a, tombstone: '-' }));
  const originalOf = new Map(copies.map((c, i) => [c as unknown, missing[i] as PlanAction]));
  for (const applied of buildFork(lines, copies, 'dry-run').applied) {
    const action = originalOf.get(applied.action);
    const removed = applied.removed.find((r) => r.sentToModel);
    if (action && removed) action.tombstone = action.tombstone.replace(EMPTY_HASH, `sha256 ${sha256(removed.text).slice(0, 12)}]`);
  }
}
