import {
  CLASS_REGISTRY,
  DEAD_CLASSES,
  INFERRED_CLASSES,
  PROVABLE_CLASSES,
  type ClassifiedSnapshot,
  type DeadClass,
  type LinkedWindow,
  type Segment,
  type Session,
} from '@glassbox/core';
import type { AnalysisPorts } from './ports';
import { reconstructWindow } from './resident';
import { SENT_KINDS, buildSegments } from './segments';
import { applyRequestView, requestSummary, type RequestViewOptions } from './request-view';
import { classifySegments } from './classify';
import { calibrate } from './calibrate';
import { reclaimSummary } from './reclaim';
import { turnPoints } from './usage';
import type { ElideOptions } from './rules/elided';

export interface AnalyzeOptions {
  /** Map the session's working directory to this folder (a moved checkout). */
  repoRoot?: string | null;
  /** Also classify `spent` (inferred, off by default). */
  withInferred?: boolean;
  /**
   * Also classify `elided` (lossy, recoverable; off by default): tool results above `overTokens`
   * keep `keep` of each end in a fork and the middle goes to the archive.
   */
  elide?: ElideOptions;
  /** The last N API exchanges are never evicted. */
  protectTail?: number;
  /** Subagent transcripts of the session, shown as linked windows. */
  subagents?: Session[];
  /** The model of the next request (its reasoning is the only reasoning sent); default: the client's choice. */
  model?: string;
  /** The version of the agent's client that will send it; default: the newest the adapter knows. */
  client?: string;
}

export const DEFAULT_PROTECT_TAIL = 3;

/** Session → resident window → segments → classes with proofs → totals. Pure apart from the ports. */
export function analyzeSession(session: Session, ports: AnalysisPorts, options: AnalyzeOptions = {}): ClassifiedSnapshot {
  const window = reconstructWindow(session);
  const viewOptions: RequestViewOptions = { now: ports.now() };
  if (options.model !== undefined) viewOptions.model = options.model;
  if (options.client !== undefined) viewOptions.client = options.client;
  applyRequestView(session, window, viewOptions);
  const { segments, exchanges } = buildSegments(session, window);
  const cal = calibrate(session, window.nodes, segments);
  if (cal.factor !== 1) scaleSegments(segments, cal.factor);
  const repoRoot = options.repoRoot ?? null;
  const withInferred = options.withInferred === true;
  const { repoExists } = classifySegments(session, segments, exchanges, ports, {
    repoRoot,
    withInferred,
    elide: options.elide ?? null,
    protectTail: options.protectTail ?? DEFAULT_PROTECT_TAIL,
  });

  const estimatedTokens = segments.reduce((n, s) => n + s.tokens, 0);
  let carried = 0;
  for (let i = 0; i < cal.reportedUpTo; i++) carried += segments[i]?.tokens ?? 0;
  const unattributedTokens = cal.reportedTokens === null ? 0 : Math.max(0, cal.reportedTokens - carried);
  const mirrorBytes = window.nodes.reduce((n, node) => n + node.mirrorBytes, 0);
  const enabled: DeadClass[] = DEAD_CLASSES.filter((c) => PROVABLE_CLASSES.includes(c) || (c === 'elided' ? options.elide !== undefined : CLASS_REGISTRY[c].evidence === 'inferred' && withInferred));

  const problems = [...session.problems, ...window.problems];
  const cwdMissing = (repoRoot ?? session.cwd) !== null && !repoExists;
  if (cwdMissing) {
    problems.push({
      code: 'repo_missing',
      severity: 'info',
      file: session.path,
      message: `the working directory ${repoRoot ?? session.cwd} does not exist here, so nothing can be proven gone or drifted (use --repo DIR to point at the checkout)`,
    });
  }

  return {
    session: {
      id: session.id,
      path: session.path,
      cwd: session.cwd,
      version: session.version,
      gitBranch: session.gitBranch,
      title: session.title ?? session.firstPrompt,
      agent: session.agent,
      repoRoot,
      repoExists,
    },
    leafUuid: session.leafUuid,
    request: requestSummary(window, SENT_KINDS),
    context: {
      reportedTokens: cal.reportedTokens,
      estimatedTokens,
      unattributedTokens,
      calibration: { factor: cal.factor, basis: cal.basis },
      compactions: window.compactions,
      microcompactions: window.microcompactions,
      mirrorBytes,
      lastModel: cal.lastModel,
      bytesPerToken: session.bytesPerToken,
    },
    segments,
    // Elision is lossy: the reclaimable figure every view shows never counts it (elision-preview.ts does).
    reclaimable: reclaimSummary(segments, session.bytesPerToken, enabled.filter((c) => c !== 'elided')),
    turns: turnPoints(session),
    subagents: [...(options.subagents ?? []).map((sub) => linkedWindow(session, sub, viewOptions.now)), ...(session.inlineSubagents ?? [])],
    problems,
    classes: { enabled, inferred: [...INFERRED_CLASSES] },
    checkedAt: ports.now().toISOString(),
  };
}

/** Applies the calibration factor to every token figure of the segments, their parts included. */
function scaleSegments(segments: Segment[], factor: number): void {
  for (const s of segments) {
    s.tokens = Math.round(s.tokens * factor);
    s.evictableTokens = Math.round(s.evictableTokens * factor);
    for (const p of s.parts ?? []) p.tokens = Math.round(p.tokens * factor);
  }
}

function linkedWindow(parent: Session, sub: Session, now: Date): LinkedWindow {
  const window = reconstructWindow(sub);
  applyRequestView(sub, window, { now });
  const { segments } = buildSegments(sub, window);
  const ref = parent.subagents.find((s) => s.path === sub.path);
  const cal = calibrate(sub, window.nodes, segments);
  const out: LinkedWindow = {
    agentId: ref?.agentId ?? sub.agentId ?? sub.id,
    path: sub.path,
    estimatedTokens: segments.reduce((n, s) => n + s.tokens, 0),
    reportedTokens: cal.reportedTokens,
    segments: segments.length,
  };
  if (ref?.toolUseId) out.toolUseId = ref.toolUseId;
  if (ref?.description) out.description = ref.description;
  if (ref?.agentType) out.agentType = ref.agentType;
  return out;
}
