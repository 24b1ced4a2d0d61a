import { EventEmitter, on } from 'node:events';
import { mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { folderFor } from '@glassbox/analysis';
import type { AgentRegistry } from '@glassbox/core';
import { analysisStage } from './analysis-stage';
import { lockWaitMs } from './db-errors';
import type { AgentRoots } from './discover';
import { discoverStage } from './discover-stage';
import { IndexDatabase, isDamage } from './index-database';
import type { ChangeReason, OpenIndexOptions, Progress, RefreshOptions, RefreshReport, SessionChange, UsageHour } from './index-types';
import { RowMarks } from '../keep/marks';
import { syncView, viewDirOf, viewRootOf } from '../keep/view';
import { runBriefListQuery, runListQuery, type ListQuery } from './list-query';
import { listStage } from './list-stage';
import { defaultDbPath } from '../shared/paths';
import { JobPool } from './pool';
import { clearContent, type ProgressFn, type RefreshContext, type SummaryWork } from './refresh-context';
import { toSessionRow, type BriefRow, type SessionRow } from './rows';
import { notRegularFile } from '../shared/scan';
import { Stage } from './stage';
import type { FileKey, FileRow, Statements } from './statements';
import { summaryStage } from './summary-stage';


export type { ChangeReason, OpenIndexOptions, Phase, Progress, RefreshOptions, RefreshReport, SessionChange } from './index-types';

interface IndexEvents {
  change: [SessionChange];
  progress: [Progress];
  notice: [string];
}

/**
 * The session index: see index.ts for the API in one page. A refresh runs named stages — discover
 * (discover-stage.ts; the plan: refresh-plan.ts), remove, list (list-stage.ts), summary
 * (summary-stage.ts), analysis (analysis-stage.ts) — and writes each batch in one
 * IMMEDIATE transaction, re-checking the row it updates, so several processes (CLI runs, the app,
 * a watcher) can index one database at once and end with the rows one of them alone would write.
 */
export class SessionIndex extends EventEmitter<IndexEvents> {
  readonly dbPath: string;
  readonly roots: string[];
  readonly agents: AgentRegistry;
  private readonly agentRoots: AgentRoots;
  /** Messages from opening the database (a damaged or newer one moved aside and rebuilt). */
  readonly notices: string[];
  private readonly store: IndexDatabase;
  private readonly pool: JobPool;
  /** What the refresh stages (their own files) use of this index. */
  private readonly refreshContext: RefreshContext;
  private chain: Promise<unknown> = Promise.resolve();
  private poolNoticeGiven = false;
  private readonly runMappings: Record<string, string>;
  private readonly marks: RowMarks;
  /** The archive whose kept sessions the list carries (null: none). */
  readonly archiveDir: string | null;
  /** Glassbox's own roots of read-only copies of kept sessions whose originals are gone (in `roots` too). */
  readonly viewRoots: string[] = [];

  constructor(options: OpenIndexOptions) {
    super();
    const env = options.env ?? process.env;
    const home = options.home ?? homedir();
    this.dbPath = options.dbPath ?? (options.dataDir ? join(options.dataDir, 'index.db') : defaultDbPath(env, home));
    this.agents = options.agents;
    const byAgent = new Map<string, string[]>();
    for (const { agent, root } of this.agents.roots(env, home)) {
      const list = byAgent.get(agent.format.id) ?? [];
      byAgent.set(agent.format.id, [...list, ...(options.roots ?? [root]).filter((r) => !list.includes(r))]);
    }
    this.archiveDir = options.archiveDir ?? null;
    if (this.archiveDir) {
      // Kept sessions whose originals are gone are listed from Glassbox's own read-only copies.
      for (const agent of this.agents.agents) {
        if (!agent.locator.retention) continue;
        const root = viewRootOf(viewDirOf(this.archiveDir), agent.format.id);
        this.viewRoots.push(root);
        byAgent.set(agent.format.id, [...(byAgent.get(agent.format.id) ?? []), root]);
      }
    }
    this.marks = new RowMarks(this.agents, this.archiveDir);
    this.agentRoots = byAgent;
    this.roots = [...new Set([...byAgent.values()].flat())];
    this.store = new IndexDatabase(this.dbPath, options.nativeBinding, (n) => this.emit('notice', n), lockWaitMs(env));
    this.notices = this.store.notices;
    // Made once the database opened (a data folder that cannot hold one is reported by it, by name).
    for (const root of this.viewRoots) {
      try {
        mkdirSync(root, { recursive: true, mode: 0o700 });
      } catch (error) {
        this.notices.push(`kept sessions whose originals are gone cannot be listed: ${root} cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
    }
    this.runMappings = { ...(options.repoMap ?? {}) };
    this.pool = new JobPool(this.agents, options.workers, options.workerUrl);
    this.refreshContext = {
      store: this.store,
      agents: this.agents,
      pool: this.pool,
      repoRootFor: (cwd) => this.repoRootFor(cwd),
      mappings: () => this.mappings(),
      emitChange: (type, reason, was, now) => this.emitChange(type, reason, was, now),
    };
  }

  private get st(): Statements {
    return this.store.st;
  }

  /** Discovers every root and brings the index up to date; calls are queued, never run at once. */
  refresh(options: RefreshOptions = {}): Promise<RefreshReport> {
    const run = this.chain.then(() => this.refreshGuarded(options));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Indexes one transcript from anywhere (a dropped file, a path on the command line) by its real path. */
  async indexFile(path: string, options: { analyze?: boolean } = {}): Promise<SessionRow> {
    const real = realpathSync(path);
    const notRegular = notRegularFile(real);
    if (notRegular) throw new Error(notRegular);
    await this.refresh({ paths: [real], analyze: options.analyze ?? true });
    const row = this.store.read(() => this.st.fileByPath.get(real), undefined);
    if (!row) throw new Error(`${path} is not a regular file`);
    return this.marks.mark([this.rowOf(row)])[0] as SessionRow;
  }

  /** Sessions (not subagent files) matching the query, newest activity first by default. */
  list(query: ListQuery = {}): SessionRow[] {
    return this.marks.mark(this.store.read(() => runListQuery(this.store.db, this.st, query), []));
  }

  /** The same list, each row as a browser of thousands shows it (BriefRow): what the app lists, fast. */
  brief(query: ListQuery = {}): BriefRow[] {
    return this.marks.mark(this.store.read(() => runBriefListQuery(this.store.db, this.st, query), []));
  }

  /**
   * Provider-reported usage of every indexed file by UTC hour and model, each bucket under the session
   * it counts for (a subagent file's under its session, as the list's cost merges them): what cost
   * reports by day, month, project and model add up (engine's usage reports).
   */
  usageHours(): UsageHour[] {
    return this.store.read(
      () =>
        this.st.usageHours.all().map((r) => ({
          sessionPath: r.kind === 'subagent' && r.parent_path ? r.parent_path : r.path,
          hour: r.hour,
          model: r.model,
          messages: r.messages,
          input: r.input,
          output: r.output,
          cacheCreation: r.cache_creation,
          cacheRead: r.cache_read,
          cost: r.cost,
          unpriced: r.unpriced,
        })),
      [],
    );
  }

  /** Every file of a session id (or unambiguous prefix), or the file at a path: the session first, then its subagents. */
  get(idOrPath: string): SessionRow[] {
    return this.marks.mark(this.store.read(() => {
      const byPath = this.st.fileByPath.get(idOrPath);
      if (byPath) return [this.rowOf(byPath)];
      let rows = this.st.filesBySession.all(idOrPath);
      if (rows.length === 0 && idOrPath.length >= 6) rows = this.st.filesBySessionPrefix.all(idOrPath);
      return rows.map((r) => this.rowOf(r));
    }, []));
  }

  /** Saved folder mappings (recorded cwd → folder on this machine), with this run's over them. */
  mappings(): Record<string, string> {
    const saved = this.store.read(() => Object.fromEntries(this.st.mappings.all().map((r) => [r.cwd, r.folder])), {} as Record<string, string>);
    return { ...saved, ...this.runMappings };
  }

  /**
   * Saves a mapping (null removes it; check the folder first: see checkMappingFolder) and marks the
   * analyses of the sessions under that cwd stale; the next refresh re-analyses them there.
   */
  saveMapping(cwd: string, folder: string | null): void {
    this.store.write(() => {
      if (folder === null) this.st.deleteMapping.run(cwd);
      else this.st.saveMapping.run(cwd, folder, new Date().toISOString());
      this.st.invalidateAnalysesUnder.run({ cwd });
    });
    if (folder === null) delete this.runMappings[cwd];
    else if (this.runMappings[cwd] !== undefined) this.runMappings[cwd] = folder;
  }

  /** The folder a session's analysis checks the disk in: a mapped folder, or null for the recorded cwd. */
  repoRootFor(cwd: string | null): string | null {
    const mapped = folderFor(cwd, this.mappings());
    return mapped === cwd ? null : mapped;
  }

  /** The same changes as the 'change' event, as an async iterator: `for await (const c of index.changes({ signal }))`. */
  async *changes(options: { signal?: AbortSignal } = {}): AsyncGenerator<SessionChange> {
    try {
      for await (const [change] of on(this, 'change', options.signal ? { signal: options.signal } : {})) yield change as SessionChange;
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error;
    }
  }

  async close(): Promise<void> {
    await this.chain;
    await this.pool.close();
    this.store.close();
  }

  private rowOf(f: FileRow): SessionRow {
    if (f.kind !== 'session') return toSessionRow(f);
    const subs = this.st.subagentsOf.all(f.path);
    const cost = subs.reduce<number | null>((n, s) => (n === null || s.level < Stage.summarised ? null : n + (s.cost_usd ?? 0)), 0);
    return toSessionRow(f, { count: subs.length, cost, unpriced: subs.reduce((n, s) => n + s.unpriced_messages, 0) });
  }

  private async refreshGuarded(options: RefreshOptions): Promise<RefreshReport> {
    try {
      return await this.doRefresh(options);
    } catch (error) {
      if (!isDamage(error)) throw error;
      // The database broke under us: it is a cache, so move it aside and index again from scratch.
      const notice = this.store.replaceDamaged(error);
      const { paths: _only, ...everything } = options;
      const report = await this.doRefresh(everything);
      report.notices.unshift(notice);
      return report;
    }
  }

  private async doRefresh(options: RefreshOptions): Promise<RefreshReport> {
    const t0 = performance.now();
    const report: RefreshReport = {
      files: 0, unchanged: 0, added: 0, appended: 0, rewritten: 0, removed: 0, unreadable: 0, analysed: 0,
      bytesRead: 0, opened: [], notices: [...this.notices], listReadyMs: 0, summaryDoneMs: 0, elapsedMs: 0,
    };
    this.notices.length = 0;
    const progress: ProgressFn = (phase, files, filesTotal, bytes, bytesTotal) => {
      const p: Progress = { phase, files, filesTotal, bytes, bytesTotal, elapsedMs: performance.now() - t0 };
      options.onProgress?.(p);
      this.emit('progress', p);
    };
    if (options.rebuild) this.store.write(() => this.st.clearAll.run());
    progress('discover', 0, 0, 0, 0);

    const paths = this.syncKeptView(options.paths, report);
    const plan = await discoverStage(this.store, this.agents, { agentRoots: this.agentRoots, roots: this.roots }, paths);
    report.files = plan.files.length;
    this.removeStage(plan.gone, report);

    const work = plan.files.filter((f) => f.action !== 'unchanged');
    report.unchanged += plan.files.length - work.length;
    const fresh = work.filter((f) => f.action === 'new');
    // Files read before: their rows as stored now (a row another writer replaced since is left to it).
    const earlier = this.store.read(
      () =>
        work
          .filter((f) => f.action !== 'new' && f.stored)
          .map((f) => ({ planned: f, row: this.st.fileById.get((f.stored as FileKey).id) }))
          .filter((w): w is SummaryWork => !!w.row && w.row.path === w.planned.path),
      [],
    );
    const bytesTotal =
      fresh.reduce((n, f) => n + f.fp.size, 0) + earlier.reduce((n, w) => n + w.planned.fp.size - (w.planned.action === 'appended' ? w.row.parsed_offset : 0), 0);

    const listed = listStage(this.refreshContext, fresh, report, progress);
    report.listReadyMs = performance.now() - t0;
    // A full refresh that analyses reads each session from its start once, for its summary and analysis together.
    const together = options.analyze !== false && options.paths === undefined;
    const bytesDone = await summaryStage(this.refreshContext, [...listed, ...earlier], report, progress, bytesTotal, options.signal, together);
    report.summaryDoneMs = performance.now() - t0;

    if (options.analyze !== false && !options.signal?.aborted) await analysisStage(this.refreshContext, options.paths, report, progress, options.signal);
    if (this.pool.failure && !this.poolNoticeGiven) {
      this.poolNoticeGiven = true;
      report.notices.push(`worker threads could not run (${this.pool.failure.message}); indexing went on in the main thread`);
    }
    report.elapsedMs = performance.now() - t0;
    progress('done', report.files, report.files, bytesDone, bytesTotal);
    return report;
  }

  /**
   * Brings the read-only copies of kept sessions in line (one for each whose original is gone) before
   * discovery. A refresh of some paths (the watcher's) also takes the copy of a kept original that just
   * went away, and a copy that is no longer wanted (its original is back), so the list changes with them.
   */
  private syncKeptView(paths: string[] | undefined, report: RefreshReport): string[] | undefined {
    if (!this.archiveDir) return paths;
    const sync = syncView(this.archiveDir, this.agents);
    for (const p of sync.problems) report.notices.push(p);
    if (!paths) return paths;
    const extra = [...sync.removed, ...paths.flatMap((p) => sync.copyFiles.get(p) ?? []).filter((p) => /\.jsonl$/i.test(p))];
    return extra.length > 0 ? [...new Set([...paths, ...extra])] : paths;
  }


  /** Remove: rows whose file is gone, first, so the list never shows a row for a file that is not there. */
  private removeStage(gone: FileKey[], report: RefreshReport): void {
    if (gone.length === 0) return;
    this.store.write(() => {
      for (const row of gone) {
        clearContent(this.st, row.id);
        this.st.deleteFile.run(row.id);
      }
    });
    for (const row of gone) {
      report.removed++;
      this.emitChange('removed', 'deleted', row, null);
    }
  }






  private emitChange(type: SessionChange['type'], reason: ChangeReason, was: FileKey, now: FileRow | null): void {
    if (this.listenerCount('change') === 0) return;
    this.emit('change', {
      type,
      reason,
      path: was.path,
      sessionId: was.session_id,
      kind: was.kind,
      row: now ? (this.marks.mark([this.rowOf(this.st.fileById.get(now.id) ?? now)])[0] ?? null) : null,
    });
  }
}
