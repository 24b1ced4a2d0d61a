import { basename } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Agent, AgentFormat, ClassifiedSnapshot, DeadClass, EvictionPlan, ForkEconomics, ForkPrepared, Session, TombstoneFill } from '@glassbox/core';
import { analyzeSession, cacheModel, economicsOf, planEviction, withRefusals, type ElideOptions, type PlanOptions, type PriceTable } from '@glassbox/analysis';
import { estimateTokensFromBytes } from '@glassbox/core';
import { elisionFill, firstFill } from './elision';
import { nodeAnalysisPorts } from '../shared/repo-port';
import { sha256Hex } from './archive';
import { ForkError } from '../shared/atomic';
import { SourceMoved, indexFromPlan, type IndexedFork } from './fork-pass';
import type { ForkJob } from './job';
import { sameStamp, stampOfPath, type SourceStamp } from './lines';
import type { PlanAction } from './writer';

/** The id a preview fork carries: it is never written, so any fixed new id does. */
export const PREVIEW_SESSION_ID = '00000000-0000-4000-8000-000000000000';

export interface PlanLinesOptions {
  repoRoot?: string | null;
  /** The folder to check the disk in, from the session's recorded cwd (a saved mapping); `repoRoot` wins. */
  repoRootFor?: (cwd: string | null) => string | null;
  withInferred?: boolean;
  /** Classify `elided` with these thresholds (lossy, recoverable; off unless given). */
  elide?: ElideOptions;
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
  /** What the fork builder applies and refuses (its index pass); null when there is nothing to remove. */
  fork: ForkPrepared | null;
}

/** A plan made from a file on disk, with the stamp of the bytes it was made from. */
export interface FilePlan extends LinesPlan {
  stamp: SourceStamp;
  /** The fork builder after its index pass (for `forkSessionId`): a write of this plan goes on with it. */
  indexed: IndexedFork | null;
}

/**
 * Analyses and plans from the exact lines that will be forked, held in memory (tests, small files):
 * every action's line and uuid match the bytes the fork is built from. The agent that recognises the
 * lines parses them and builds the fork (`agent` names it instead). What the fork builder cannot
 * apply exactly leaves the plan with its reason.
 */
export function planFromLines(path: string, lines: readonly string[], options: PlanLinesOptions & { agent: Agent }): LinesPlan {
  const { format } = options.agent;
  const session = format.parseLines(lines, { path, fallbackId: basename(path).replace(/\.jsonl$/i, '') });
  return planSession(session, options, format, (actions, fill) => {
    const builder = format.createForkBuilder(actions, PREVIEW_SESSION_ID);
    lines.forEach((text, i) => builder.index(text, i + 1));
    return builder.prepare(fill);
  });
}

/**
 * The same plan from a file, streamed (never held whole): the agent's own reader parses it (and reads
 * a read's captured text back from its line when a proof needs it), then the fork builder's index
 * pass finds what it can apply. The file must not change between the two passes (its stamp is
 * checked), so the plan matches the bytes a fork of them would be built from.
 */
export function planFromFile(path: string, options: FilePlanOptions): FilePlan {
  return planAndIndex(path, options).planned;
}

export type FilePlanOptions = PlanLinesOptions & {
  /** The agent whose transcript it is (the caller recognised it: `agentForFile`). */
  agent: Agent;
  job?: ForkJob;
  /** The session id the fork will get (default: the preview's); a write with the same id reuses the index pass. */
  forkSessionId?: string;
};

/** planFromFile, with the fork builder its index pass prepared (a preview goes on with it). */
export function planAndIndex(path: string, options: FilePlanOptions): { planned: FilePlan; format: AgentFormat } {
  const agent = options.agent;
  const stamp = stampOfPath(path);
  if (!stamp) throw new ForkError('source_unreadable', `${path}: no such file`);
  options.job?.progress('reading the session', 0, stamp.size);
  // The bytes the plan is made from, checksummed as they are parsed: what later passes must find again.
  const read = { crc32: 0, bytes: 0, lastByte: -1 };
  const session = agent.locator.parseFile(path, {
    onBytes: (chunk) => {
      read.crc32 = crc32(chunk, read.crc32);
      read.bytes += chunk.byteLength;
      read.lastByte = chunk[chunk.byteLength - 1] ?? read.lastByte;
    },
  });
  // An agent that does not report its bytes, or a file that grew before it was opened: checksummed apart.
  const parsed = read.bytes === stamp.size ? read : null;
  options.job?.throwIfCancelled();
  let indexed: IndexedFork | null = null;
  const planned = planSession(session, options, agent.format, (actions, fill) => {
    try {
      // The lines the builder needs are placed by this parse: read only those (the full pass otherwise).
      indexed = indexFromPlan(agent.format, path, session, actions, options.forkSessionId ?? PREVIEW_SESSION_ID, { expect: stamp, fill, parsed, ...(options.job ? { job: options.job } : {}) });
    } catch (error) {
      throw error instanceof SourceMoved ? changedWhilePlanned(path) : error;
    }
    return indexed.prepared;
  });
  if (!sameStamp(stamp, stampOfPath(path))) throw changedWhilePlanned(path);
  return { planned: { ...planned, stamp, indexed }, format: agent.format };
}

function changedWhilePlanned(path: string): ForkError {
  return new ForkError('source_changed', `${path} changed while it was being read: the session is probably still running. Nothing was written; try again when it is idle.`);
}

function planSession(
  session: Session,
  options: PlanLinesOptions,
  format: AgentFormat,
  prepareFork: (actions: PlanAction[], fill: TombstoneFill) => ForkPrepared,
): LinesPlan {
  const repoRoot = options.repoRoot ?? options.repoRootFor?.(session.cwd) ?? null;
  const analyzeOptions: Parameters<typeof analyzeSession>[2] = { repoRoot, withInferred: options.withInferred === true };
  if (options.protectTail !== undefined) analyzeOptions.protectTail = options.protectTail;
  if (options.elide) analyzeOptions.elide = options.elide;
  if (options.subagents) analyzeOptions.subagents = options.subagents;
  if (options.model !== undefined) analyzeOptions.model = options.model;
  const snapshot = analyzeSession(session, nodeAnalysisPorts(), analyzeOptions);
  const cache = cacheModel(snapshot, { at: options.at ?? new Date(), prices: options.prices ?? format.prices });
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
  let fork: ForkPrepared | null = null;
  if (actions.length > 0) {
    const fill = options.elide ? firstFill(elisionFill(options.elide.keep), nameRemovedHash) : nameRemovedHash;
    fork = prepareFork(actions, fill);
    // A tombstone names the hash of what it replaces (see nameRemovedHash): the builder filled it in.
    const filled = new Map(fork.applied.map((a) => [a.action.segmentId, a.action.tombstone]));
    for (const a of actions) a.tombstone = filled.get(a.segmentId) ?? a.tombstone;
    // An elision's size is known once it is cut: what it keeps, at the segment's tokens per byte.
    const sizes = new Map(fork.applied.map((a) => [a.action.segmentId, a]));
    for (const a of actions) {
      const done = sizes.get(a.segmentId);
      if (a.class !== 'elided' || !done || done.bytesBefore <= 0) continue;
      a.tombstoneTokens = Math.min(a.tokensFreed ?? 0, Math.ceil(((a.tokensFreed ?? estimateTokensFromBytes(done.bytesBefore, session.bytesPerToken)) * done.bytesAfter) / done.bytesBefore));
    }
    const refused = fork.refused.map((r) => ({ segmentId: r.action.segmentId ?? '', code: r.code, message: r.message }));
    plan = withRefusals(plan, refused);
    const dropped = new Set(refused.map((r) => r.segmentId));
    actions = actions.filter((a) => !dropped.has(a.segmentId ?? ''));
    // The tombstone text as written (a hash filled in here) is what the plan reports.
    const text = new Map(actions.map((a) => [a.segmentId, a]));
    const actionsNow = plan.actions.map((p) => {
      const a = text.get(p.segmentId);
      return a ? { ...p, tombstone: a.tombstone, tombstoneTokens: a.tombstoneTokens ?? p.tombstoneTokens } : p;
    });
    const tomb = actionsNow.reduce((n, a) => n + a.tombstoneTokens, 0);
    plan = { ...plan, actions: actionsNow, totals: { ...plan.totals, tombstoneTokens: tomb, netReclaimed: plan.totals.reclaimable - tomb } };
  }
  const economics = economicsOf(cache, plan);
  if (plan.horizon) plan = { ...plan, horizon: { ...plan.horizon, economics } };
  return { session, snapshot, plan, actions, economics, fork };
}

const EMPTY_HASH = /sha256 \]$/;

/**
 * A tombstone names the sha-256 of what it replaces, so `glassbox show` can find it by the prefix
 * it prints. The analysis knows the hash only of payloads it hashed (results, Write contents); for
 * the others (an Edit's new_string) it is taken from the bytes the fork will remove.
 */
const nameRemovedHash: TombstoneFill = (action) =>
  EMPTY_HASH.test(action.tombstone) ? (removed) => action.tombstone.replace(EMPTY_HASH, `sha256 ${sha256Hex(removed.text).slice(0, 12)}]`) : null;
