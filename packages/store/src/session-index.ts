import { EventEmitter, on } from 'node:events';
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultAgents } from '@glassbox/agents';
import type { AgentRegistry, MessageUsage, SummaryState } from '@glassbox/core';
import { openDatabase, isCorruptionError, moveAside, type Db } from './db';
import { defaultDbPath } from './paths';
import { discoverFiles, describeOpenedFile, type AgentRoots, type DiscoveredFile } from './discover';
import { prepareStatements, SEARCH_ROWS_PER_FILE, type FileKey, type FileRow, type NewFileRow, type Statements } from './statements';
import { fingerprintOf, sameFingerprint, type Fingerprint } from './scan';
import { quickLook } from './quick';
import { claimFile } from './claim';
import { JobPool } from './pool';
import type { SummarizeResult } from './jobs';
import type { AnalyzeResult } from './analyze-job';
import { messagePricer } from './cost';
import { foldMessages } from './totals';
import { toSessionRow, type SessionRow } from './rows';
import { runListQuery, type ListQuery } from './list-query';
import { folderFor } from '@glassbox/analysis';

export interface OpenIndexOptions {
  /** The database file. Default: `<data dir>/index.db` (see paths.ts; `GLASSBOX_DATA_DIR` overrides). */
  dbPath?: string;
  /** Folder for `index.db` when dbPath is not given (the desktop app passes its userData folder). */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** The agents whose transcripts are indexed (from the composition root, `@glassbox/agents`). */
  agents?: AgentRegistry;
  /** The folders to index, for every agent. Default: each agent's own roots (e.g. CLAUDE_CONFIG_DIR, else ~/.config/claude and ~/.claude). */
  roots?: string[];
  /** Worker threads for summaries and analyses; 0 runs them inline. Default: one per core. */
  workers?: number;
  /** A better-sqlite3 binary built for another ABI (Electron). */
  nativeBinding?: string;
  /** Where worker threads start (bundlers move files: the desktop app passes its own entry). */
  workerUrl?: URL;
  /** Folder mappings for this run only (e.g. `glassbox ui --repo`), over the saved ones; not saved. */
  repoMap?: Record<string, string>;
}

export type Phase = 'discover' | 'list' | 'summary' | 'analysis' | 'done';

export interface Progress {
  phase: Phase;
  files: number;
  filesTotal: number;
  bytes: number;
  bytesTotal: number;
  elapsedMs: number;
}

export type ChangeReason = 'new' | 'appended' | 'rewritten' | 'deleted' | 'unreadable' | 'summarised' | 'analysed';

/** What changed in the index, so a window can update one row. `row` is null for removals. */
export interface SessionChange {
  type: 'added' | 'updated' | 'removed';
  reason: ChangeReason;
  path: string;
  sessionId: string;
  kind: 'session' | 'subagent';
  row: SessionRow | null;
}

export interface RefreshOptions {
  onProgress?: (p: Progress) => void;
  /** Forget everything and index from scratch. */
  rebuild?: boolean;
  /** Run the full analysis (reclaimable by class) after the summaries. Default true. */
  analyze?: boolean;
  /** Only these paths (the watcher's changed files); default: discover every root. */
  paths?: string[];
}

export interface RefreshReport {
  files: number;
  unchanged: number;
  added: number;
  appended: number;
  rewritten: number;
  removed: number;
  unreadable: number;
  analysed: number;
  bytesRead: number;
  /** Every file opened for reading in this refresh (an unchanged file never is). */
  opened: string[];
  notices: string[];
  /** When every row of the list existed with its list figures. */
  listReadyMs: number;
  summaryDoneMs: number;
  elapsedMs: number;
}

interface Candidate {
  file: Omit<DiscoveredFile, 'root'> & { root: string | null };
  origin: 'discovered' | 'opened';
  fp: Fingerprint;
  /** The stored row's key columns; the full row is loaded only for files that need work. */
  key: FileKey | undefined;
  row?: FileRow;
}

interface IndexEvents {
  change: [SessionChange];
  progress: [Progress];
  notice: [string];
}

/** The session index: see index.ts for the API in one page. */
export class SessionIndex extends EventEmitter<IndexEvents> {
  readonly dbPath: string;
  readonly roots: string[];
  readonly agents: AgentRegistry;
  private readonly agentRoots: AgentRoots;
  /** Messages from opening the database (a damaged or newer one moved aside and rebuilt). */
  readonly notices: string[] = [];
  private db: Db;
  private st: Statements;
  private readonly pool: JobPool;
  private readonly pricers = new Map<string, (m: MessageUsage) => number | null>();
  private chain: Promise<unknown> = Promise.resolve();
  private poolNoticeGiven = false;
  private readonly nativeBinding: string | undefined;
  private readonly runMappings: Record<string, string>;

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
    this.agentRoots = byAgent;
    this.roots = [...new Set([...byAgent.values()].flat())];
    this.nativeBinding = options.nativeBinding;
    this.runMappings = { ...(options.repoMap ?? {}) };
    const opened = this.open();
    this.db = opened.db;
    this.notices.push(...opened.notices);
    this.st = prepareStatements(this.db);
    this.pool = new JobPool(options.workers, options.workerUrl);
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
    await this.refresh({ paths: [real], analyze: options.analyze ?? true });
    const row = this.st.fileByPath.get(real);
    if (!row) throw new Error(`${path} is not a regular file`);
    return this.rowOf(row);
  }

  /** Sessions (not subagent files) matching the query, newest activity first by default. */
  list(query: ListQuery = {}): SessionRow[] {
    return this.guard(() => runListQuery(this.db, this.st, query), []);
  }

  /** Every file of a session id (or unambiguous prefix), or the file at a path: the session first, then its subagents. */
  get(idOrPath: string): SessionRow[] {
    return this.guard(() => {
      const byPath = this.st.fileByPath.get(idOrPath);
      if (byPath) return [this.rowOf(byPath)];
      let rows = this.st.filesBySession.all(idOrPath);
      if (rows.length === 0 && idOrPath.length >= 6) rows = this.st.filesBySessionPrefix.all(idOrPath);
      return rows.map((r) => this.rowOf(r));
    }, []);
  }

  /** Saved folder mappings (recorded cwd → folder on this machine), with this run's over them. */
  mappings(): Record<string, string> {
    const saved = this.guard(() => Object.fromEntries(this.st.mappings.all().map((r) => [r.cwd, r.folder])), {} as Record<string, string>);
    return { ...saved, ...this.runMappings };
  }

  /**
   * Saves a mapping (null removes it; check the folder first: see checkMappingFolder) and marks the
   * analyses of the sessions under that cwd stale; the next refresh re-analyses them there.
   */
  saveMapping(cwd: string, folder: string | null): void {
    this.db.transaction(() => {
      if (folder === null) this.st.deleteMapping.run(cwd);
      else this.st.saveMapping.run(cwd, folder, new Date().toISOString());
      this.st.invalidateAnalysesUnder.run({ cwd });
    })();
    if (folder === null) delete this.runMappings[cwd];
    else if (this.runMappings[cwd] !== undefined) this.runMappings[cwd] = folder;
  }

  /** The folder a session's analysis checks the disk in: a mapped folder, or null for the recorded cwd. */
  repoRootFor(cwd: string | null): string | null {
    const mapped = folderFor(cwd, this.mappings());
    return mapped === cwd ? null : mapped;
  }

  private open(): ReturnType<typeof openDatabase> {
    return openDatabase(this.dbPath, {
      ...(this.nativeBinding ? { nativeBinding: this.nativeBinding } : {}),
      probe: (db) => void prepareStatements(db),
    });
  }

  /** Runs a read; if the database turns out damaged, it is replaced by an empty one (the next refresh fills it). */
  private guard<T>(read: () => T, empty: T): T {
    try {
      return read();
    } catch (error) {
      if (!isCorruptionError(error)) throw error;
      this.replaceDamaged(error);
      return empty;
    }
  }

  private replaceDamaged(error: unknown): string {
    this.db.close();
    const aside = moveAside(this.dbPath, 'corrupt');
    const opened = this.open();
    this.db = opened.db;
    this.st = prepareStatements(this.db);
    const notice = `The index was damaged (${(error as Error).message}): moved it to ${aside} and rebuilt it`;
    this.notices.push(notice, ...opened.notices);
    this.emit('notice', notice);
    return notice;
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
    this.db.close();
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
    const cost = subs.reduce<number | null>((n, s) => (n === null || s.level < 2 ? null : n + (s.cost_usd ?? 0)), 0);
    return toSessionRow(f, { count: subs.length, cost, unpriced: subs.reduce((n, s) => n + s.unpriced_messages, 0) });
  }

  private async refreshGuarded(options: RefreshOptions): Promise<RefreshReport> {
    try {
      return await this.doRefresh(options);
    } catch (error) {
      if (!isCorruptionError(error)) throw error;
      // The database broke under us: it is a cache, so move it aside and index again from scratch.
      const notice = this.replaceDamaged(error);
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
    const progress = (phase: Phase, files: number, filesTotal: number, bytes: number, bytesTotal: number) => {
      const p: Progress = { phase, files, filesTotal, bytes, bytesTotal, elapsedMs: performance.now() - t0 };
      options.onProgress?.(p);
      this.emit('progress', p);
    };
    if (options.rebuild) this.st.clearAll.run();
    progress('discover', 0, 0, 0, 0);

    const { candidates, gone } = this.collect(options.paths);
    report.files = candidates.length;

    // Removed files first, so the list never shows a row for a file that is not there.
    if (gone.length > 0) {
      this.db.transaction(() => {
        for (const row of gone) this.deleteRow(row);
      })();
      for (const row of gone) {
        report.removed++;
        this.emitChange('removed', 'deleted', row, null);
      }
    }

    // Classify by fingerprint: an unchanged file is not opened at all.
    const work: { c: Candidate; mode: 'new' | 'resume' | 'restart' }[] = [];
    for (const c of candidates) {
      const key = c.key;
      let mode: 'new' | 'resume' | 'restart';
      if (!key || key.level < 0) mode = 'new';
      else if (key.level >= 2 && sameFingerprint(c.fp, rowFingerprint(key))) {
        report.unchanged++;
        continue;
      } else if (key.dev !== c.fp.dev || key.ino !== c.fp.ino || c.fp.size < key.size || key.level < 2) mode = 'restart';
      else mode = 'resume';
      if (key && mode !== 'new') {
        const full = this.st.fileById.get(key.id);
        if (full) c.row = full;
      }
      work.push({ c, mode });
    }

    // List figures for new files from their first and last records, before any full pass.
    const fresh = work.filter((w) => w.mode === 'new');
    const bytesTotal = work.reduce((n, w) => n + w.c.fp.size - (w.mode === 'resume' ? (w.c.row?.parsed_offset ?? 0) : 0), 0);
    progress('list', 0, fresh.length, 0, 0);
    this.db.transaction(() => {
      for (const w of fresh) {
        const row = this.quickRow(w.c, report);
        w.c.row = row;
      }
    })();
    for (const w of fresh) if (w.c.row) this.emitChange(w.c.key ? 'updated' : 'added', w.c.row.level < 0 ? 'unreadable' : 'new', w.c.row, w.c.row);
    report.listReadyMs = performance.now() - t0;
    progress('list', fresh.length, fresh.length, 0, 0);

    // Full summaries (biggest first, for balance over the workers), stored in small batches as they
    // arrive: one transaction per batch, so rows fill in progressively without a commit per file.
    let done = 0;
    let bytesDone = 0;
    const toSummarize = work.filter((w) => w.c.row && w.c.row.level >= 0).sort((a, b) => b.c.fp.size - a.c.fp.size);
    const batch: { mode: (typeof work)[number]['mode']; row: FileRow; result: SummarizeResult }[] = [];
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (batch.length === 0) return;
      const items = batch.splice(0);
      const updated = this.db.transaction(() => items.map((i) => this.applySummary(i.row, i.result)))();
      items.forEach(({ mode, row, result }, k) => {
        report.opened.push(row.path);
        const reason: ChangeReason = mode === 'new' ? 'summarised' : result.ok && !result.fromStart ? 'appended' : 'rewritten';
        if (!result.ok) report.unreadable++;
        else if (mode === 'new') report.added++;
        else if (reason === 'appended') report.appended++;
        else report.rewritten++;
        if (result.ok) report.bytesRead += result.bytesRead;
        const now = updated[k] as FileRow;
        // A new file's row was added by the list stage: its summary is an update of that row.
        this.emitChange('updated', result.ok ? reason : 'unreadable', now, now);
        done++;
        bytesDone += result.ok ? result.bytesRead : 0;
      });
      progress('summary', done, toSummarize.length, bytesDone, bytesTotal);
    };
    progress('summary', 0, toSummarize.length, 0, bytesTotal);
    await Promise.all(
      toSummarize.map(async (w) => {
        const row = w.c.row as FileRow;
        // Rows are loaded without their checkpoint; only a file to resume needs it.
        const saved = w.mode === 'resume' ? (row.state ?? this.st.stateOf.get(row.id)?.state ?? null) : null;
        const resume = saved !== null;
        const result = await this.pool.run({
          type: 'summarize',
          agent: row.agent,
          path: row.path,
          subagentFile: row.kind === 'subagent',
          fromOffset: resume ? row.parsed_offset : 0,
          fromLine: resume ? row.parsed_lines : 0,
          state: saved !== null ? (JSON.parse(saved) as SummaryState) : null,
        });
        batch.push({ mode: w.mode, row, result });
        if (batch.length >= 64) flush();
        else timer ??= setTimeout(flush, 50);
      }),
    );
    flush();
    report.unreadable += fresh.filter((w) => w.c.row && w.c.row.level < 0).length;
    report.summaryDoneMs = performance.now() - t0;

    if (options.analyze !== false) await this.analyzePending(options.paths, report, progress);
    if (this.pool.failure && !this.poolNoticeGiven) {
      this.poolNoticeGiven = true;
      report.notices.push(`worker threads could not run (${this.pool.failure.message}); indexing went on in the main thread`);
    }
    report.elapsedMs = performance.now() - t0;
    progress('done', report.files, report.files, bytesDone, bytesTotal);
    return report;
  }

  /** Sessions whose analysis is older than their summary, re-analysed in the pool. */
  private async analyzePending(
    paths: string[] | undefined,
    report: RefreshReport,
    progress: (phase: Phase, files: number, filesTotal: number, bytes: number, bytesTotal: number) => void,
  ): Promise<void> {
    const only = paths ? new Set(paths.flatMap((p) => [p, this.st.fileByPath.get(p)?.parent_path ?? p])) : null;
    const candidates = only ? [...only].map((p) => this.st.fileByPath.get(p)).filter((r): r is FileRow => !!r) : this.st.staleAnalyses.all();
    const pending = candidates
      .filter((f) => f.kind === 'session' && f.level >= 2 && f.analyzed_offset !== f.parsed_offset)
      .sort((a, b) => b.size - a.size);
    const bytesTotal = pending.reduce((n, f) => n + f.size, 0);
    let done = 0;
    let bytes = 0;
    progress('analysis', 0, pending.length, 0, bytesTotal);
    await Promise.all(
      pending.map(async (f) => {
        const result: AnalyzeResult = await this.pool.run({ type: 'analyze', agent: f.agent, path: f.path, repoRoot: this.repoRootFor(f.cwd) });
        const now = this.st.fileById.get(f.id);
        if (now) {
          const next: FileRow = { ...now, analyzed_offset: f.parsed_offset };
          if (result.ok) {
            next.estimated_tokens = result.estimatedTokens;
            next.reclaimable_tokens = result.reclaimableTokens;
            next.window_tokens = result.windowTokens;
            next.analysis_repo = result.repoRoot;
            next.reclaimable_json = JSON.stringify(result.byClass);
            next.analysis_error = null;
          } else {
            next.analysis_error = result.message;
          }
          this.st.updateFile.run(next);
          report.analysed++;
          this.emitChange('updated', 'analysed', next, next);
        }
        done++;
        bytes += f.size;
        progress('analysis', done, pending.length, bytes, bytesTotal);
      }),
    );
  }

  /** The files to consider (every root, or the given paths) with their fingerprints, and rows whose file is gone. */
  private collect(paths: string[] | undefined): { candidates: Candidate[]; gone: FileKey[] } {
    // The watcher's small refreshes look up their own rows only: the table may hold thousands.
    const rows = new Map<string, FileKey>(
      (paths ? paths.map((p) => this.st.fileByPath.get(p)).filter((r): r is FileRow => !!r) : this.st.fileKeys.all()).map((r) => [r.path, r]),
    );
    const candidates: Candidate[] = [];
    const seenInodes = new Set<string>();
    const seenPaths = new Set<string>();
    const consider = (file: Candidate['file'], origin: Candidate['origin']) => {
      let fp: Fingerprint;
      try {
        const st = statSync(file.path, { throwIfNoEntry: false });
        if (!st?.isFile()) return;
        fp = fingerprintOf(st);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        // A path that cannot even be stat'ed (a link loop, no permission): record it as unreadable.
        fp = { dev: 0, ino: 0, size: 0, mtimeMs: 0 };
      }
      // The same file reached twice (a root that links to another): index it once.
      const inode = `${fp.dev}:${fp.ino}`;
      if (fp.ino !== 0 && seenInodes.has(inode)) return;
      seenInodes.add(inode);
      seenPaths.add(file.path);
      candidates.push({ file, origin, fp, key: rows.get(file.path) });
    };

    if (paths) {
      for (const path of paths) {
        const row = rows.get(path);
        if (row) consider(rowAsFile(row), row.origin);
        else {
          const underRoot = this.roots.find((r) => path.startsWith(r + '/'));
          const d = describeOpenedFile(this.agents, path);
          consider({ ...d, root: underRoot ?? null }, underRoot ? 'discovered' : 'opened');
        }
      }
      const gone = paths.map((p) => rows.get(p)).filter((r): r is FileKey => !!r && !seenPaths.has(r.path));
      return { candidates, gone };
    }
    const discovered = discoverFiles(this.agents, this.agentRoots);
    for (const d of discovered) consider(d, 'discovered');
    for (const row of rows.values()) if (row.origin === 'opened' && !seenPaths.has(row.path)) consider(rowAsFile(row), 'opened');
    const gone = [...rows.values()].filter((r) => !seenPaths.has(r.path));
    return { candidates, gone };
  }

  /** Inserts or resets a row from a quick look at the file's first and last records. */
  private quickRow(c: Candidate, report: RefreshReport): FileRow {
    let state: SummaryState | null = null;
    let note: string | null = null;
    const claim = claimFile(this.agents, c.file);
    if (claim.status === 'moved') {
      c.file = claim.file;
      report.notices.push(claim.notice);
    }
    if (claim.status === 'foreign') note = claim.note;
    else {
      try {
        const q = quickLook(c.file.path, c.file.kind === 'subagent', this.agents.byId(c.file.agent).format);
        state = q.state;
        c.fp = q.fingerprint;
        report.bytesRead += q.bytesRead;
        report.opened.push(c.file.path);
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        note = `cannot be read (${e.code ?? e.message})`;
      }
    }
    const sessionId = state?.sessionId ?? c.file.sessionId ?? '';
    let parentPath = c.file.parentPath;
    if (c.file.kind === 'subagent' && !parentPath && sessionId) parentPath = join(dirname(c.file.path), `${sessionId}.jsonl`);
    const base: NewFileRow = {
      agent: c.file.agent,
      path: c.file.path,
      root: c.file.root,
      origin: c.origin,
      kind: c.file.kind,
      parent_path: parentPath,
      agent_id: c.file.agentId ?? state?.agentId ?? null,
      session_id: sessionId || c.file.sessionId,
      project: c.file.project,
      cwd: state?.cwd ?? null,
      git_branch: state?.gitBranch ?? null,
      version: state?.version ?? null,
      title: state?.title ?? null,
      first_prompt: state?.firstPrompt ?? null,
      first_ts: state?.firstTs ?? null,
      last_ts: state?.lastTs ?? null,
      ...fpColumns(c.fp),
      level: state ? 1 : -1,
      parsed_offset: 0,
      parsed_lines: 0,
      state: null,
      search_seq: 0,
      turns: 0,
      records: 0,
      context_tokens: state?.contextTokens ?? null,
      last_model: state?.lastModel ?? null,
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_tokens: 0,
      cache_read_tokens: 0,
      api_messages: 0,
      cost_usd: null,
      unpriced_messages: 0,
      problems: note ? 1 : 0,
      problem_note: note,
      analyzed_offset: null,
      estimated_tokens: null,
      reclaimable_tokens: null,
      reclaimable_json: null,
      analysis_error: null,
      indexed_at: new Date().toISOString(),
      window_tokens: null,
      analysis_repo: null,
    };
    if (c.key) {
      this.clearContent(c.key.id);
      const row: FileRow = { ...base, id: c.key.id };
      this.st.updateFile.run(row);
      return row;
    }
    const id = this.st.insertFile.run(base);
    return { ...base, id };
  }

  /** Stores one summary pass: the checkpoint (with the pass's messages folded into its totals) and the search text. */
  private applySummary(row: FileRow, result: SummarizeResult): FileRow {
    const now = this.st.fileById.get(row.id) ?? row;
    if (!result.ok) {
      const failed: FileRow = {
        ...now,
        level: -1,
        problems: 1,
        problem_note: `cannot be read (${result.code ?? result.message})`,
        indexed_at: new Date().toISOString(),
      };
      this.st.updateFile.run(failed);
      return failed;
    }
    return this.db.transaction((): FileRow => {
      const s = result.state;
      let seq = now.search_seq;
      if (result.fromStart) {
        if (now.level >= 2 || now.search_seq > 0) this.clearContent(now.id);
        seq = 0;
      }
      foldMessages(s, result.messages, this.pricerFor(now.agent));
      if (result.searchText.length > 0 && seq < SEARCH_ROWS_PER_FILE - 1) {
        this.st.insertSearch.run(now.id * SEARCH_ROWS_PER_FILE + seq, result.searchText);
        seq++;
      }
      const totals = s.totals;
      const next: FileRow = {
        ...now,
        ...fpColumns(result.fingerprint),
        session_id: s.sessionId ?? now.session_id,
        agent_id: now.agent_id ?? s.agentId,
        cwd: s.cwd,
        git_branch: s.gitBranch,
        version: s.version,
        title: s.title,
        first_prompt: s.firstPrompt,
        first_ts: s.firstTs,
        last_ts: s.lastTs,
        level: 2,
        parsed_offset: result.endOffset,
        parsed_lines: result.endLine,
        state: JSON.stringify(s),
        search_seq: seq,
        turns: s.turns,
        records: s.records,
        context_tokens: s.contextTokens,
        last_model: s.lastModel,
        input_tokens: totals.input,
        output_tokens: totals.output,
        cache_creation_tokens: totals.cacheCreation,
        cache_read_tokens: totals.cacheRead,
        api_messages: totals.apiMessages,
        cost_usd: totals.apiMessages > 0 && totals.unpriced === totals.apiMessages ? null : totals.cost,
        unpriced_messages: totals.unpriced,
        problems: s.invalidLines,
        problem_note: s.invalidLines > 0 ? `${s.invalidLines} invalid line(s), first at line ${s.firstInvalidLine}` : null,
        indexed_at: new Date().toISOString(),
      };
      if (result.fromStart) {
        next.analyzed_offset = null;
      }
      this.st.updateFile.run(next);
      if (next.kind === 'subagent' && next.parent_path) this.st.invalidateAnalysis.run(next.parent_path);
      return next;
    })();
  }

  private clearContent(id: number): void {
    this.st.deleteSearch.run(id * SEARCH_ROWS_PER_FILE, (id + 1) * SEARCH_ROWS_PER_FILE);
  }

  private deleteRow(row: FileKey): void {
    this.clearContent(row.id);
    this.st.deleteFile.run(row.id);
  }

  private emitChange(type: SessionChange['type'], reason: ChangeReason, was: FileKey, now: FileRow | null): void {
    if (this.listenerCount('change') === 0) return;
    this.emit('change', {
      type,
      reason,
      path: was.path,
      sessionId: was.session_id,
      kind: was.kind,
      row: now ? this.rowOf(this.st.fileById.get(now.id) ?? now) : null,
    });
  }
}

function rowFingerprint(r: FileKey): Fingerprint {
  return { dev: r.dev, ino: r.ino, size: r.size, mtimeMs: r.mtime_ms };
}

function fpColumns(fp: Fingerprint): Pick<FileRow, 'dev' | 'ino' | 'size' | 'mtime_ms'> {
  return { dev: fp.dev, ino: fp.ino, size: fp.size, mtime_ms: fp.mtimeMs };
}

function rowAsFile(row: FileKey): Candidate['file'] {
  return {
    agent: row.agent,
    path: row.path,
    root: row.root,
    project: row.project,
    kind: row.kind,
    parentPath: row.parent_path,
    agentId: row.agent_id,
    sessionId: row.session_id,
  };
}
