import { realpathSync } from 'node:fs';
import { isFatal, type Agent, type ClassifiedSnapshot, type CompactionHistory, type DiscoveredFile, type ForkEconomics, type LoadedSession, type PriceTable, type Problem } from '@glassbox/core';
import { analyzeSession, cacheModel, computeCost, economicsOf, planEviction, type AnalysisPorts, type CostReport, type ElideOptions, DEFAULT_ELIDE_OPTIONS, elisionPreview, type ElisionPreview } from '@glassbox/analysis';
import { scopedRepoPort } from '@glassbox/store/repo-port';
import { compactionHistories, type LineSource } from '@glassbox/store';
import { forkWillSend, type ForkLineage } from '@glassbox/store/fork';
import { Refusal } from './failures';
import type { Setup } from './setup';

/** How a session's window is worked out. */
export interface AnalyzeRequest {
  /** The folder its recorded working directory is mapped to here (null: the recorded one). */
  repoRoot: string | null;
  withInferred?: boolean;
  /** Also classify `elided` with these thresholds (lossy, recoverable): what elision would save. */
  elide?: ElideOptions;
  protectTail?: number;
  /** The model of the next request (default: the one the client would resume on). */
  model?: string;
  /** Look nothing up on disk (a dropped file, whose recorded paths came from elsewhere). */
  diskless?: boolean;
  /** Read files only inside these folders (browser mode's token scope); null or absent: anywhere the proofs look. */
  readScope?: readonly string[] | null;
}

/** A session read from its file, with the agent that wrote it. */
export interface Opened {
  agent: Agent;
  loaded: LoadedSession;
}

/** Where a session stands among forks (from the archive's manifests). */
export interface Lineage {
  forkOf: { sessionId: string; path: string; createdAt: string; kind: 'clean' | 'undo' } | null;
  forks: { sessionId: string; path: string; createdAt: string }[];
  /** A fork not resumed since it was written: the window it will send, estimated from the original's reported figure. */
  willSend: { estimatedTokens: number; originalReportedTokens: number } | null;
}

export interface Inspection extends Opened {
  snapshot: ClassifiedSnapshot;
  /** What forking with the default plan would cost now, under the prompt cache, at the agent's list prices. */
  economics: ForkEconomics;
  lineage: Lineage;
  /** What elision (opt-in; lossy, recoverable) would shorten at the given thresholds, never in the figures above. */
  elision: ElisionPreview;
}

/** Reading sessions: finding them by id, loading, the window with its proofs, cost, compactions. */
export class Sessions {
  constructor(
    private readonly setup: Setup,
    private readonly lineage: () => ForkLineage,
  ) {}

  /** Session files (not subagent files) of every agent with this id, or whose id starts with it (6 characters or more) when none matches exactly. */
  findById(id: string): { found: DiscoveredFile[]; roots: string[] } {
    const byAgent = this.setup.agents.roots(this.setup.env, this.setup.home);
    const sessions = this.setup.agents.agents.flatMap((agent) =>
      agent.locator.discover(byAgent.filter((r) => r.agent === agent).map((r) => r.root)).filter((f) => f.kind === 'session'),
    );
    const exact = sessions.filter((s) => s.sessionId === id);
    const found = exact.length > 0 || id.length < 6 ? exact : sessions.filter((s) => s.sessionId.startsWith(id));
    // The same file reached through two roots (one linking to the other) is one.
    const byReal = new Map<string, DiscoveredFile>();
    for (const f of found) byReal.set(realOr(f.path), f);
    return { found: [...byReal.values()], roots: byAgent.map((r) => r.root) };
  }

  /** A session and its subagents; a file that holds no usable session is refused as bad input, with the reader's words. */
  open(path: string): Opened {
    const agent = this.setup.agentFor(path);
    const loaded = agent.locator.load(path);
    if (isFatal(loaded.session.problems)) {
      const first = loaded.session.problems.find((p) => p.severity === 'error');
      throw new Refusal(first?.code ?? 'unreadable', first?.message ?? `${path}: cannot be read`, true);
    }
    return { agent, loaded };
  }

  /** The resident window, classified with its proofs. */
  analyze(loaded: LoadedSession, r: AnalyzeRequest): ClassifiedSnapshot {
    return analyzeSession(loaded.session, this.portsFor(r), {
      repoRoot: r.repoRoot,
      withInferred: r.withInferred === true,
      subagents: loaded.subagents,
      ...(r.protectTail !== undefined ? { protectTail: r.protectTail } : {}),
      ...(r.elide !== undefined ? { elide: r.elide } : {}),
      ...(r.model !== undefined ? { model: r.model } : {}),
    });
  }

  /** `glassbox inspect`: the window, what forking now would cost, and the session's place among forks. */
  inspect(path: string, r: Omit<AnalyzeRequest, 'repoRoot'> & { repoRootFor: (cwd: string | null) => string | null; at?: Date }): Inspection {
    const opened = this.open(path);
    const { repoRootFor, at: _at, elide, ...rest } = r;
    const snapshot = this.analyze(opened.loaded, { ...rest, repoRoot: repoRootFor(opened.loaded.session.cwd) });
    const economics = economicsOf(cacheModel(snapshot, { at: r.at ?? new Date(), prices: opened.agent.format.prices }), planEviction(snapshot));
    const elision = elisionPreview(snapshot, opened.loaded.session, elide ?? DEFAULT_ELIDE_OPTIONS);
    return { ...opened, snapshot, economics, lineage: this.lineageOf(snapshot), elision };
  }

  /** A fork knows it is one from its manifest in the archive (the lineage the app shows too). */
  lineageOf(snapshot: ClassifiedSnapshot): Lineage {
    const lineage = this.lineage();
    const own = lineage.byForkId.get(snapshot.session.id);
    const forkOf = own ? { sessionId: own.original.sessionId, path: own.original.path, createdAt: own.createdAt, kind: own.kind } : null;
    const forks = (lineage.forksOf.get(snapshot.session.id) ?? []).filter((e) => e.kind === 'clean').map((e) => ({ sessionId: e.forkId, path: e.forkPath, createdAt: e.createdAt }));
    return { forkOf, forks, willSend: forkWillSend(own, snapshot.context.reportedTokens, snapshot.turns.at(-1)?.line ?? 0) };
  }

  /** Provider-reported usage, one figure per response, priced from `prices` (default: the agent's dated table). */
  cost(path: string, prices?: (agentTable: PriceTable) => PriceTable): { report: CostReport; agent: Agent; problems: Problem[] } {
    const { agent, loaded } = this.open(path);
    const table = prices ? prices(agent.format.prices) : agent.format.prices;
    return { report: computeCost(loaded.session, loaded.subagents, table), agent, problems: [loaded.session, ...loaded.subagents].flatMap((s) => s.problems) };
  }

  /** Every compaction of a session and of its subagents' own files, x-rayed (`source`: its bytes when they are not on disk). */
  compactions(opened: Opened, r: { repoRoot: string | null; diskless?: boolean; readScope?: readonly string[] | null }, source?: LineSource): CompactionHistory[] {
    return compactionHistories(opened.agent.format, opened.loaded, { repoRoot: r.repoRoot, ports: this.portsFor(r) }, source);
  }

  /** The disk as the session may see it: nothing (a dropped file not mapped), only some folders (token scope), or anywhere. */
  private portsFor(o: { diskless?: boolean; readScope?: readonly string[] | null }): AnalysisPorts {
    if (o.diskless) return { ...this.setup.ports, repo: { kind: () => 'unreadable', readText: () => null } };
    return o.readScope ? { ...this.setup.ports, repo: scopedRepoPort(o.readScope) } : this.setup.ports;
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
