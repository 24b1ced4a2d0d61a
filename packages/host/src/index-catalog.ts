import { join } from 'node:path';
import { openIndex, watchRoots, type BriefRow, type SessionIndex, type RootWatcher } from '@glassbox/store';
import { indexUsageSource, usageReport, type Glassbox, type UsageQuery, type UsageReport } from '@glassbox/engine';
import { deadShare, retentionWarning } from '@glassbox/core';
import type { IndexProgress, RetentionFolder, SessionRow, SessionSort } from '@glassbox/contract';
import type { AgentRegistry } from '@glassbox/core';
import { defaultAgents } from '@glassbox/agents';
import type { CatalogChange, SessionCatalog } from './catalog';
import { hostGlassbox } from './glassbox';

/** A session written to in the last few minutes is shown as live. */
const LIVE_MS = 5 * 60 * 1000;

const STAGE: Record<string, string> = { discover: 'Looking for sessions', list: 'Listing', summary: 'Reading', analysis: 'Analysing' };

const SORT: Record<SessionSort, 'activity' | 'size' | 'tokens' | 'reclaimable' | 'cost'> = {
  activity: 'activity',
  size: 'size',
  context: 'tokens',
  reclaimable: 'reclaimable',
  cost: 'cost',
};

/**
 * The session list from the store's SQLite index (incremental, worker-thread summaries and analyses,
 * chokidar watcher): what the app uses.
 */
/**
 * How long a file is quiet before the watcher reads it: long enough to take a client's burst of
 * records (written within a millisecond or two) as one pass, short enough that a window following a
 * live session shows an append well within a frame budget of 150 ms (`npm run bench:live`).
 */
const WATCH_QUIET_MS = 20;

export class IndexCatalog implements SessionCatalog {
  private readonly index: SessionIndex;
  private readonly agents: AgentRegistry;
  private watcher: RootWatcher | null = null;

  private readonly keeping: Glassbox['keeping'];

  constructor(options: { roots: string[]; dataDir: string; agents?: AgentRegistry; glassbox?: Glassbox; workers?: number; nativeBinding?: string; workerUrl?: URL; repoMap?: Record<string, string> }) {
    this.agents = options.agents ?? defaultAgents();
    this.keeping = (options.glassbox ?? hostGlassbox(this.agents, options.dataDir)).keeping;
    this.index = openIndex({
      roots: options.roots,
      agents: this.agents,
      dataDir: options.dataDir,
      // Kept sessions are marked, and listed from the archive once their originals are gone.
      archiveDir: join(options.dataDir, 'archive'),
      ...(options.repoMap ? { repoMap: options.repoMap } : {}),
      ...(options.workers === undefined ? {} : { workers: options.workers }),
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.workerUrl ? { workerUrl: options.workerUrl } : {}),
    });
  }

  /** The agents' folders (not Glassbox's own folder of archive copies, whose rows the list admits by itself). */
  roots(): string[] {
    return this.index.roots.filter((r) => !this.index.viewRoots.includes(r));
  }

  agentNames(): string[] {
    return this.agents.agents.map((a) => a.format.label);
  }

  notices(): string[] {
    return [...this.index.notices];
  }

  list(sort: SessionSort = 'activity'): SessionRow[] {
    // The brief rows: a list of thousands reads a quarter of the columns (an app starting on a made index shows it at once).
    // Unsorted: the list's handler sorts what it shows (catalog.sortRows), once.
    return this.index
      .brief({ sort: SORT[sort], unsorted: true })
      .filter((r) => r.kind === 'session' && isSession(r))
      .map((r) => this.toRow(r));
  }

  usage(q: UsageQuery): UsageReport {
    return usageReport(indexUsageSource(this.index, this.agents), q);
  }

  search(query: string): Map<string, string[]> {
    try {
      return new Map(this.index.brief({ search: query }).map((r) => [r.path, r.snippet ?? []]));
    } catch {
      // A query the full-text engine cannot parse matches titles and projects only.
      return new Map();
    }
  }

  async refresh(onProgress: (p: IndexProgress) => void, signal?: AbortSignal): Promise<void> {
    onProgress({ phase: 'scanning', done: 0, total: 0 });
    const report = await this.index.refresh({
      ...(signal ? { signal } : {}),
      onProgress: (p) =>
        onProgress(
          p.phase === 'done'
            ? { phase: 'done', done: p.files, total: p.filesTotal }
            : { phase: 'indexing', done: p.files, total: p.filesTotal, current: STAGE[p.phase] ?? 'Indexing' },
        ),
    });
    onProgress({ phase: 'done', done: report.files, total: report.files });
  }

  has(path: string): boolean {
    return this.index.get(path).some((r) => r.path === path);
  }

  update(path: string): SessionRow | null {
    const row = this.index.get(path)[0];
    return row && row.kind === 'session' ? this.toRow(row) : null;
  }

  async add(path: string): Promise<SessionRow | null> {
    const row = await this.index.indexFile(path);
    return row.kind === 'session' ? this.toRow(row) : null;
  }

  /** Sessions "keep every session automatically" should keep now (keep/auto-keep.ts), most urgent first. */
  autoKeepCandidates(now = Date.now()): string[] {
    return this.keeping.dueForKeeping(this.index.list(), now).map((c) => c.path);
  }

  /** The clean-up rule of each configuration folder that holds listed sessions. */
  retentionFolders(): RetentionFolder[] {
    const seen = new Map<string, RetentionFolder>();
    for (const r of this.index.list()) {
      if (!r.retention || !this.agents.has(r.agent)) continue;
      const agent = this.agents.byId(r.agent);
      const folder = agent.locator.retention?.configFolderOf(r.path);
      if (!folder || seen.has(folder)) continue;
      const rule = agent.locator.retention?.ruleFor(r.path, null);
      if (!rule) continue;
      seen.set(folder, {
        folder,
        client: agent.format.label,
        days: rule.kind === 'deletes' ? rule.days : null,
        decidedBy: rule.decidedBy,
        warning: retentionWarning(rule, folder),
        problems: rule.sources.filter((s) => s.problem).map((s) => `${s.file} ${s.problem ?? ''}`),
      });
    }
    return [...seen.values()];
  }

  savedMappings(): Record<string, string> {
    return this.index.mappings();
  }

  saveMapping(cwd: string, folder: string | null): void {
    this.index.saveMapping(cwd, folder);
  }

  watch(onChange: (change: CatalogChange) => void): () => void {
    if (!this.watcher) {
      this.watcher = watchRoots(this.index, (c) => {
        if (c.kind !== 'session') return;
        const reason = c.type === 'removed' ? 'removed' : c.reason === 'new' ? 'added' : c.reason === 'appended' ? 'appended' : 'changed';
        onChange({ path: c.path, reason, row: c.row ? this.toRow(c.row) : null });
      }, { debounceMs: WATCH_QUIET_MS });
    }
    return () => {
      void this.watcher?.close();
      this.watcher = null;
    };
  }

  /** Resolves once the watcher `watch` started reports changes (at once when none runs): no change is missed after it. */
  watching(): Promise<void> {
    return this.watcher?.ready ?? Promise.resolve();
  }

  close(): void {
    void this.watcher?.close();
    this.watcher = null;
    void this.index.close();
  }

  private clientOf(agent: string): string {
    return this.agents.has(agent) ? this.agents.byId(agent).format.label : agent;
  }

  private toRow(r: Omit<BriefRow, 'apiMessages'>): SessionRow {
    // The window the analysis measured the reclaimable figure against (core's windowFigures).
    const whole = r.windowTokens ?? r.contextTokens ?? r.estimatedTokens ?? 0;
    const reclaim = r.reclaimableTokens ?? 0;
    const last = Date.parse(r.lastActivity);
    return {
      id: r.sessionId,
      path: r.path,
      projectDir: r.project,
      project: (r.cwd && lastSegment(r.cwd)) || r.project,
      agent: this.clientOf(r.agent),
      cwd: r.cwd,
      title: r.title ?? (r.firstPrompt === null ? null : firstLine(r.firstPrompt).slice(0, 140)),
      lastActivity: r.lastActivity,
      bytes: r.size,
      contextTokens: r.contextTokens,
      estimatedTokens: r.estimatedTokens ?? 0,
      reclaimableTokens: reclaim,
      reclaimableShare: deadShare(reclaim, whole),
      live: Number.isFinite(last) && Date.now() - last < LIVE_MS,
      fork: false,
      forkOf: null,
      forks: [],
      subagents: r.subagents,
      problem: r.stage === 'unreadable' ? (r.problemNote ?? 'unreadable') : null,
      warning: r.stage !== 'unreadable' && r.problemNote ? `${r.problemNote}: the file may be cut off or damaged` : null,
      costUsd: r.totalCostUsd,
      lastModel: r.lastModel,
      retention: r.retention
        ? { client: this.clientOf(r.agent), expiresAt: r.retention.expiresAt, decidedBy: r.retention.decidedBy }
        : r.kept?.gone
          ? { client: this.clientOf(r.agent), expiresAt: null, decidedBy: 'the original is gone; this is the copy in Glassbox’s archive' }
          : null,
      kept: r.kept,
    };
  }
}

/**
 * A file under a projects root that is not a transcript — empty, or read in full without one prompt,
 * title or API response — is not a session: left out of the list rather than failing when opened.
 */
function isSession(r: BriefRow): boolean {
  if (r.size === 0) return false;
  // A file no agent's adapter recognises (the store's claim: "…: not a … transcript …; not read").
  if (r.stage === 'unreadable') return !/transcript.*; not read$/.test(r.problemNote ?? '');
  if (r.stage === 'listed') return true;
  return r.turns > 0 || r.apiMessages > 0 || r.firstPrompt !== null || r.title !== null;
}

/** The last non-empty segment of a path, either separator (a cwd recorded on Windows too); '' when none. */
function lastSegment(path: string): string {
  let end = path.length;
  while (end > 0 && (path[end - 1] === '/' || path[end - 1] === '\\')) end--;
  const start = Math.max(path.lastIndexOf('/', end - 1), path.lastIndexOf('\\', end - 1)) + 1;
  return path.slice(start, end);
}

function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl < 0 ? text : text.slice(0, nl);
}
