import { EventEmitter, on } from 'node:events';
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultAgents } from '@glassbox/agents';
import type { AgentRegistry, MessageUsage, SummaryState } from '@glassbox/core';
import { defaultDbPath } from './paths';
import { IndexDatabase, isDamage } from './index-database';
import { lockWaitMs } from './db-errors';
import { SEARCH_ROWS_PER_FILE, type FileKey, type FileRow, type Statements } from './statements';
import { fingerprintOf, notRegularFile, sameFingerprint, type Fingerprint } from './scan';
import { planRefresh, rowFingerprint, type PlannedFile, type SeenFile } from './refresh-plan';
import { listedRow, rowAsFile, summarisedRow, unreadableRow, type IndexedFile } from './file-rows';
import { discoverFiles, describeOpenedFile, type AgentRoots } from './discover';
import { quickLook } from './quick';
import { claimFile } from './claim';
import { Stage } from './stage';
import { JobPool } from './pool';
import type { SummarizeResult } from './jobs';
import type { AnalyzeResult } from './analyze-job';
import { messagePricer } from './cost';
import { foldMessages } from './totals';
import { toSessionRow, type SessionRow } from './rows';
import type { ChangeReason, OpenIndexOptions, Phase, Progress, RefreshOptions, RefreshReport, SessionChange } from './index-types';

export type { ChangeReason, OpenIndexOptions, Phase, Progress, RefreshOptions, RefreshReport, SessionChange } from './index-types';
import { runListQuery, type ListQuery } from './list-query';
import { folderFor } from '@glassbox/analysis';
import { mkdirSync } from 'node:fs';
import { RowMarks } from './keep/marks';
import { syncView, viewDirOf, viewRootOf } from './keep/view';

/** A file found by discovery (or asked for by path), and how it got into the index. */
interface Found {
  file: IndexedFile;
  origin: 'discovered' | 'opened';
}

type Planned = PlannedFile<Found>;
type ProgressFn = (phase: Phase, files: number, filesTotal: number, bytes: number, bytesTotal: number) => void;

/** A file to summarise: its row as loaded, and the offset its pass starts from. */
interface SummaryWork {
  planned: Planned;
  row: FileRow;
}

interface IndexEvents {
  change: [SessionChange];
  progress: [Progress];
  notice: [string];
}

/**
 * The session index: see index.ts for the API in one page. A refresh runs named stages — discover
 * (the plan: refresh-plan.ts), remove, list, summary, analysis — and writes each batch in one
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
  private readonly pricers = new Map<string, (m: MessageUsage) => number | null>();
  private chain: Promise<unknown> = Promise.resolve();
  private poolNoticeGiven = false;
  private readonly runMappings: Record<string, string>;
  private readonly marks: RowMarks;
  /** The archive whose kept sessions the list carries (null: none). */
  readonly archiveDir: string | null;
  /** Glassbox's own roots of read-only copies of kept sessions whose originals are gone (in `roots` too). */
  readonly viewRoots: string[] = [];

  constructor(options: OpenIndexOptions = {}) {
    super();
    const env = options.env ?? process.env;
    const home = options.home ?? homedir();
    this.dbPath = options.dbPath ?? (options.dataDir ? join(options.dataDir, 'index.db') : defaultDbPath(env, home));
    this.agents = options.agents ?? defaultAgents();
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
    this.pool = new JobPool(options.workers, options.workerUrl);
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

  /** Each agent's messages are priced with its own table. */
  private pricerFor(agent: string): (m: MessageUsage) => number | null {
    let p = this.pricers.get(agent);
    if (!p) {
      p = messagePricer(this.agents.byId(agent).format.prices);
      this.pricers.set(agent, p);
    }
    return p;
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
    const plan = this.discoverStage(paths);
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

    const listed = this.listStage(fresh, report, progress);
    report.listReadyMs = performance.now() - t0;
    const bytesDone = await this.summaryStage([...listed, ...earlier], report, progress, bytesTotal);
    report.summaryDoneMs = performance.now() - t0;

    if (options.analyze !== false) await this.analysisStage(options.paths, report, progress);
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

  /**
   * Discover: every file under the roots (or the asked paths) with its fingerprint, and what to do with
   * each (refresh-plan.ts). An unchanged file is never opened.
   */
  private discoverStage(paths: string[] | undefined) {
    // The watcher's small refreshes look up their own rows only: the table may hold thousands.
    const stored: FileKey[] = this.store.read(
      () => (paths ? paths.map((p) => this.st.fileByPath.get(p)).filter((r): r is FileRow => !!r) : this.st.fileKeys.all()),
      [],
    );
    const byPath = new Map(stored.map((r) => [r.path, r]));
    const seen: SeenFile<Found>[] = [];
    const consider = (found: Found) => {
      const fp = fingerprintIfFile(found.file.path);
      if (fp) seen.push({ path: found.file.path, file: found, fp });
    };
    if (paths) {
      for (const path of paths) {
        const row = byPath.get(path);
        if (row) consider({ file: rowAsFile(row), origin: row.origin });
        else {
          const underRoot = this.roots.find((r) => path.startsWith(r + '/'));
          consider({ file: { ...describeOpenedFile(this.agents, path), root: underRoot ?? null }, origin: underRoot ? 'discovered' : 'opened' });
        }
      }
    } else {
      const discovered = discoverFiles(this.agents, this.agentRoots);
      for (const d of discovered) consider({ file: d, origin: 'discovered' });
      const found = new Set(discovered.map((d) => d.path));
      // Files opened from elsewhere stay indexed while they exist.
      for (const row of stored) if (row.origin === 'opened' && !found.has(row.path)) consider({ file: rowAsFile(row), origin: 'opened' });
    }
    return planRefresh(seen, stored);
  }

  /** Remove: rows whose file is gone, first, so the list never shows a row for a file that is not there. */
  private removeStage(gone: FileKey[], report: RefreshReport): void {
    if (gone.length === 0) return;
    this.store.write(() => {
      for (const row of gone) {
        this.clearContent(row.id);
        this.st.deleteFile.run(row.id);
      }
    });
    for (const row of gone) {
      report.removed++;
      this.emitChange('removed', 'deleted', row, null);
    }
  }

  /**
   * List: new files get a row from their first and last records (list figures before any full pass).
   * The files are read first, then every row is written in one short transaction; a file another
   * writer has summarised meanwhile, as it is now, is left alone.
   */
  private listStage(fresh: Planned[], report: RefreshReport, progress: ProgressFn): SummaryWork[] {
    progress('list', 0, fresh.length, 0, 0);
    const looked = fresh.map((f) => {
      // A file in another agent's roots goes to the adapter that recognises it, with a notice; one
      // no adapter reads is listed as unreadable with the reason (claim.ts).
      const claim = claimFile(this.agents, f.file.file);
      if (claim.status === 'moved') {
        f.file.file = claim.file;
        report.notices.push(claim.notice);
      } else if (claim.status === 'foreign') return { f, fp: f.fp, state: null, note: claim.note };
      try {
        const q = quickLook(f.path, f.file.file.kind === 'subagent', this.agents.byId(f.file.file.agent).format);
        report.bytesRead += q.bytesRead;
        report.opened.push(f.path);
        return { f, fp: q.fingerprint, state: q.state as SummaryState | null, note: null as string | null };
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        return { f, fp: f.fp, state: null, note: `cannot be read (${e.code ?? e.message})` };
      }
    });
    const written = this.store.write(() =>
      looked.map(({ f, fp, state, note }) => {
        const now = this.st.fileByPath.get(f.path);
        if (now && now.level >= Stage.summarised && sameFingerprint(rowFingerprint(now), fp)) return null;
        const base = listedRow(f.file.file, f.file.origin, fp, state, note);
        const id = this.st.upsertFile.run(base);
        this.clearContent(id);
        return { planned: f, row: { ...base, id }, existed: !!now };
      }),
    );
    const out: SummaryWork[] = [];
    for (const w of written) {
      if (!w) {
        report.unchanged++;
        continue;
      }
      if (w.row.level === Stage.unreadable) report.unreadable++;
      else out.push(w);
      this.emitChange(w.existed ? 'updated' : 'added', w.row.level === Stage.unreadable ? 'unreadable' : 'new', w.row, w.row);
    }
    progress('list', fresh.length, fresh.length, 0, 0);
    return out;
  }

  /**
   * Summary: every line of each file to work on (biggest first, for balance over the workers), from
   * its checkpoint when it was appended to. Results are stored in small batches as they arrive, one
   * transaction per batch, so rows fill in progressively without a commit per file.
   */
  private async summaryStage(work: SummaryWork[], report: RefreshReport, progress: ProgressFn, bytesTotal: number): Promise<number> {
    let done = 0;
    let bytesDone = 0;
    const todo = work.sort((a, b) => b.planned.fp.size - a.planned.fp.size);
    const batch: { w: SummaryWork; fromOffset: number; result: SummarizeResult }[] = [];
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (batch.length === 0) return;
      const items = batch.splice(0);
      const applied = this.store.write(() => items.map((i) => this.applySummary(i.w.row, i.fromOffset, i.result)));
      items.forEach(({ w, result }, k) => {
        done++;
        const now = applied[k];
        report.opened.push(w.row.path);
        if (result.ok) {
          report.bytesRead += result.bytesRead;
          bytesDone += result.bytesRead;
        }
        // Another writer stored this pass (or a newer one) first: nothing of ours to add.
        if (!now) return void report.unchanged++;
        const action = w.planned.action;
        const reason: ChangeReason = action === 'new' ? 'summarised' : result.ok && !result.fromStart ? 'appended' : 'rewritten';
        if (!result.ok) report.unreadable++;
        else if (action === 'new') report.added++;
        else if (reason === 'appended') report.appended++;
        else report.rewritten++;
        // A new file's row was added by the list stage: its summary is an update of that row.
        this.emitChange('updated', result.ok ? reason : 'unreadable', now, now);
      });
      progress('summary', done, todo.length, bytesDone, bytesTotal);
    };
    progress('summary', 0, todo.length, 0, bytesTotal);
    await Promise.all(
      todo.map(async (w) => {
        const row = w.row;
        // Rows are loaded without their checkpoint; only a file to resume needs it.
        const saved = w.planned.action === 'appended' ? (row.state ?? this.st.stateOf.get(row.id)?.state ?? null) : null;
        const fromOffset = saved !== null ? row.parsed_offset : 0;
        const result = await this.pool.run({
          type: 'summarize',
          agent: row.agent,
          path: row.path,
          subagentFile: row.kind === 'subagent',
          fromOffset,
          fromLine: saved !== null ? row.parsed_lines : 0,
          state: saved !== null ? (JSON.parse(saved) as SummaryState) : null,
        });
        batch.push({ w, fromOffset, result });
        if (batch.length >= 64) flush();
        else timer ??= setTimeout(flush, 50);
      }),
    );
    flush();
    return bytesDone;
  }

  /**
   * Stores one summary pass (inside the batch's transaction): the checkpoint with the pass's messages
   * folded into its totals, and the search text. A pass that resumed from a checkpoint applies only
   * on top of that same checkpoint; null when the row is gone or another writer moved it on.
   */
  private applySummary(row: FileRow, fromOffset: number, result: SummarizeResult): FileRow | null {
    const now = this.st.fileByPath.get(row.path);
    if (!now) return null;
    if (!result.ok) {
      const failed = unreadableRow(now, result.code ?? result.message);
      this.st.updateFile.run(failed);
      return failed;
    }
    if (!result.fromStart && (now.level !== Stage.summarised || now.parsed_offset !== fromOffset)) return null;
    const s = result.state;
    let seq = now.search_seq;
    if (result.fromStart) {
      if (now.level >= Stage.summarised || now.search_seq > 0) this.clearContent(now.id);
      seq = 0;
    }
    foldMessages(s, result.messages, this.pricerFor(now.agent));
    if (result.searchText.length > 0 && seq < SEARCH_ROWS_PER_FILE - 1) {
      this.st.insertSearch.run(now.id * SEARCH_ROWS_PER_FILE + seq, result.searchText);
      seq++;
    }
    const next = summarisedRow(now, s, result, seq);
    this.st.updateFile.run(next);
    if (next.kind === 'subagent' && next.parent_path) this.st.invalidateAnalysis.run(next.parent_path);
    return next;
  }

  /**
   * Analysis: sessions whose analysis is older than their summary, re-analysed in the pool. A result
   * lands only while the row still has the summary it was made from; a failed analysis leaves no
   * figures behind (the row says why).
   */
  private async analysisStage(paths: string[] | undefined, report: RefreshReport, progress: ProgressFn): Promise<void> {
    const pending = this.store.read(() => {
      const only = paths ? new Set(paths.flatMap((p) => [p, this.st.fileByPath.get(p)?.parent_path ?? p])) : null;
      const candidates = only ? [...only].map((p) => this.st.fileByPath.get(p)).filter((r): r is FileRow => !!r) : this.st.staleAnalyses.all();
      return candidates.filter((f) => f.kind === 'session' && f.level >= Stage.summarised && f.analyzed_offset !== f.parsed_offset);
    }, []);
    pending.sort((a, b) => b.size - a.size);
    const bytesTotal = pending.reduce((n, f) => n + f.size, 0);
    let done = 0;
    let bytes = 0;
    progress('analysis', 0, pending.length, 0, bytesTotal);
    await Promise.all(
      pending.map(async (f) => {
        const result: AnalyzeResult = await this.pool.run({ type: 'analyze', agent: f.agent, path: f.path, repoRoot: this.repoRootFor(f.cwd) });
        const columns = {
          id: f.id,
          analyzed_offset: f.parsed_offset,
          estimated_tokens: result.ok ? result.estimatedTokens : null,
          reclaimable_tokens: result.ok ? result.reclaimableTokens : null,
          reclaimable_json: result.ok ? JSON.stringify(result.byClass) : null,
          window_tokens: result.ok ? result.windowTokens : null,
          analysis_repo: result.ok ? result.repoRoot : null,
          analysis_error: result.ok ? null : result.message,
        };
        const now = this.store.write(() => (this.st.updateAnalysis.run(columns).changes > 0 ? this.st.fileById.get(f.id) : undefined));
        if (now) {
          report.analysed++;
          this.emitChange('updated', 'analysed', now, now);
        }
        done++;
        bytes += f.size;
        progress('analysis', done, pending.length, bytes, bytesTotal);
      }),
    );
  }

  private clearContent(id: number): void {
    this.st.deleteSearch.run(id * SEARCH_ROWS_PER_FILE, (id + 1) * SEARCH_ROWS_PER_FILE);
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

/**
 * A regular file's fingerprint; null when there is no regular file at the path (gone, a folder, a
 * FIFO). A path that cannot even be stat'ed (a link loop, no permission) gets zeros: it is recorded
 * as unreadable with its reason.
 */
function fingerprintIfFile(path: string): Fingerprint | null {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st?.isFile() ? fingerprintOf(st) : null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { dev: 0, ino: 0, size: 0, mtimeMs: 0 };
  }
}
