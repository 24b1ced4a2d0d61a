import { basename } from 'node:path';
import type { ClassifiedSnapshot, DeadClass, EvictionPlan, Session } from '@glassbox/core';
import { buildFork, parseLines, sha256 } from '@glassbox/adapter-claude-code';
import { analyzeSession, planEviction } from '@glassbox/analysis';
import { nodeAnalysisPorts } from '../repo-port';
import type { PlanAction } from './writer';

export interface PlanLinesOptions {
  repoRoot?: string | null;
  withSpent?: boolean;
  protectTail?: number;
  classes?: readonly DeadClass[];
  minimumSavings?: number;
  subagents?: Session[];
  /** The model of the next request (decides which reasoning is resident); default: the client's choice. */
  model?: string;
}

export interface LinesPlan {
  session: Session;
  snapshot: ClassifiedSnapshot;
  plan: EvictionPlan;
  actions: PlanAction[];
}

/**
 * Analyses and plans from the exact lines that will be forked (not a second read of the file), so
 * that every action's line and uuid match the bytes the fork is built from.
 */
export function planFromLines(path: string, lines: readonly string[], options: PlanLinesOptions = {}): LinesPlan {
  const session = parseLines(lines, path, basename(path).replace(/\.jsonl$/i, ''));
  const analyzeOptions: Parameters<typeof analyzeSession>[2] = { repoRoot: options.repoRoot ?? null, withSpent: options.withSpent === true };
  if (options.protectTail !== undefined) analyzeOptions.protectTail = options.protectTail;
  if (options.subagents) analyzeOptions.subagents = options.subagents;
  if (options.model !== undefined) analyzeOptions.model = options.model;
  const snapshot = analyzeSession(session, nodeAnalysisPorts(), analyzeOptions);
  const planOptions: Parameters<typeof planEviction>[1] = {};
  if (options.classes) planOptions.classes = options.classes;
  if (options.minimumSavings !== undefined) planOptions.minimumSavings = options.minimumSavings;
  const plan = planEviction(snapshot, planOptions);
  const actions: PlanAction[] = plan.actions.map((a) => {
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
  return { session, snapshot, plan, actions };
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
