import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, extname, isAbsolute } from 'node:path';
import type { AgentRegistry } from '@glassbox/core';
import { isCancelled, type ClassifiedSnapshot } from '@glassbox/core';
import { folderFor } from '@glassbox/analysis';
import { checkMappingFolder } from '@glassbox/store';
import type { ForkLineage } from '@glassbox/store/fork';
import { rowsWithLineage, snapshotLineage, type SnapshotHead } from './lineage';
import {
  fail,
  isInvokeChannel,
  ok,
  parseRawJson,
  rawJson,
  validateArgs,
  type ArgsOf,
  type EventChannel,
  type EventMap,
  type FileOpened,
  type ForkLineageView,
  type HostInfo,
  type IndexProgress,
  type InvokeChannel,
  type Result,
  type ResultOf,
  type SessionRow,
} from '@glassbox/contract';
import { matchesQuery, sortRows, whyMatched, type SessionCatalog } from './catalog';
import type { Engine } from './engine';
import { Grants } from './grants';
import { Jobs, type Job } from './jobs';
import { positionsOnly } from './problem-text';
import { loadSamples, type SampleSet } from './samples';
import { WorkHandler } from './work/handler';
import { WorkPool } from './work/pool';
import type { AnalyzeOptions, OpenSummary, SessionRef } from './work/protocol';
import { Keeping } from './keeping';

export interface HostOptions {
  mode: 'electron' | 'browser';
  /** Folders sessions are listed from (every agent's roots, unless a test names its own). */
  roots: string[];
  /** The agents whose transcripts the host reads (from the composition root, `@glassbox/agents`). */
  agents: AgentRegistry;
  /** Glassbox's own folder: index, archive of originals. */
  dataDir: string;
  /** Folder of bundled sample sessions; null for none. */
  samplesDir: string | null;
  /** Recorded working directory → folder on this machine. */
  repoMap?: Record<string, string>;
  engine: Engine;
  /** The session list's source (the store's index; see createHost). */
  catalog: (host: { engine: Engine; repoRootFor: (cwd: string | null) => string | null }) => SessionCatalog;
  version?: string;
  /** Start the file watcher (live rows). */
  watch?: boolean;
  /**
   * Threads for the heavy work (parsing, analysis, forks): 0 runs it on the thread that answers
   * requests (tests); the shells use two (see createHost). `workerUrl`: a built work-thread script.
   */
  work?: { threads: number; workerUrl?: URL };
  /** A job is shown to the window once it has run this long (default 200 ms: quick work never flickers into view). */
  jobShowAfterMs?: number;
}

type Listener = <E extends EventChannel>(event: E, payload: EventMap[E]) => void;

/** A session the window opened, as this thread knows it (its parse and snapshots are in a work thread). */
interface Opened {
  ref: SessionRef;
  summary: OpenSummary;
  external: boolean;
  /** Dropped bytes: their recorded working directory is not this machine's unless mapped (repo:map). */
  upload: boolean;
}

const UPLOAD_PREFIX = 'upload:';
const MAX_OPEN = 12;

/**
 * The engine host: every IPC channel implemented against the engine packages, with no Electron in
 * sight. Electron runs it in a utility process; `glassbox ui` serves it over HTTP.
 */
export class EngineHost {
  private readonly listeners = new Set<Listener>();
  private readonly opened = new Map<string, Opened>();
  private readonly jobs: Jobs;
  private readonly work: WorkPool;
  private readonly repoMap: Record<string, string>;
  private readonly samples: SampleSet;
  private readonly catalog: SessionCatalog;
  private readonly grants: Grants;
  private progress: IndexProgress = { phase: 'idle', done: 0, total: 0 };
  private refreshing: Promise<void> | null = null;
  private stopWatch: (() => void) | null = null;
  private readonly keeping: Keeping;

  constructor(private readonly options: HostOptions) {
    this.jobs = new Jobs((p) => this.emit('job:progress', p), options.jobShowAfterMs);
    this.work = new WorkPool(new WorkHandler(options.agents, options.engine), options.work?.threads ?? 0, options.work?.workerUrl);
    this.samples = loadSamples(options.samplesDir);
    this.repoMap = { ...this.samples.repoMap, ...(options.repoMap ?? {}) };
    const repoRootFor = (cwd: string | null) => this.repoRootFor(cwd);
    this.catalog = options.catalog({ engine: options.engine, repoRootFor });
    // Mappings saved by an earlier run; this run's (--repo) take precedence.
    this.repoMap = { ...this.samples.repoMap, ...(this.catalog.savedMappings?.() ?? {}), ...(options.repoMap ?? {}) };
    this.grants = new Grants(
      () => this.catalog.roots(),
      (path) => this.catalog.has?.(path) ?? false,
    );
    for (const s of this.samples.sessions) this.grants.grant(s.path);
    this.keeping = new Keeping({
      dataDir: options.dataDir,
      agents: options.agents,
      catalog: this.catalog,
      admit: (path) => this.grants.admit(path),
      changed: (path, reason) => this.rowChanged(path, reason),
      repoRootFor,
    });
  }

  /** Indexes the roots and (optionally) starts watching them. Resolves when the first pass is done. */
  start(): Promise<void> {
    if (this.options.watch) {
      this.stopWatch = this.catalog.watch((change) => {
        this.opened.delete(change.path);
        const row = change.row !== undefined ? change.row : change.reason === 'removed' ? null : this.catalog.update(change.path);
        this.emit('session:changed', { path: change.path, row, reason: change.reason });
      });
    }
    this.keeping.resume();
    // A window's first list is answered from the index as it is; looking for changes starts a turn later.
    return new Promise<void>((r) => setImmediate(r)).then(() => this.refresh());
  }

  /** The projects roots sessions are listed from. */
  roots(): string[] {
    return this.catalog.roots();
  }

  close(): void {
    this.keeping.stop();
    this.stopWatch?.();
    this.catalog.close();
    this.listeners.clear();
    void this.work.close();
  }

  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One request from the renderer: validated, dispatched, and always answered with a Result. */
  async handle(channel: unknown, rawArgs: unknown): Promise<Result<unknown>> {
    return parseRawJson(await this.handleWire(channel, rawArgs));
  }

  /**
   * The same, for a transport: big values a work thread serialised come as RawJson (the HTTP server
   * splices them into its answer, the preload parses them), so this thread never rebuilds them.
   */
  async handleWire(channel: unknown, rawArgs: unknown): Promise<Result<unknown>> {
    if (!isInvokeChannel(channel)) return fail('unknown_channel', `unknown channel ${String(channel).slice(0, 60)}`);
    const v = validateArgs(channel, rawArgs);
    if ('error' in v) return { ok: false, error: v.error };
    try {
      return await this.dispatch(channel, v.args);
    } catch (error) {
      return fail('internal', `Glassbox hit an unexpected problem: ${(error as Error).message}`, 'Try again; if it persists, run the CLI with GLASSBOX_DEBUG=1 for details.');
    }
  }

  private async dispatch<C extends InvokeChannel>(channel: C, args: ArgsOf<C>): Promise<Result<ResultOf<C>>> {
    type R = Result<ResultOf<C>>;
    switch (channel) {
      case 'host:info':
        return ok(this.info()) as R;
      case 'sessions:refresh':
        void this.refresh();
        return ok(this.progress) as R;
      case 'sessions:list': {
        const a = args as ArgsOf<'sessions:list'>;
        const query = a.query?.trim() ?? '';
        const deep = query && this.catalog.search ? this.catalog.search(query) : new Set<string>();
        const all = this.catalog.list(a.sort ?? 'activity');
        const rows = sortRows(
          all.filter((r) => matchesQuery(r, query) || deep.has(r.path)),
          a.sort ?? 'activity',
        ).map((r) => (query ? { ...r, matched: whyMatched(r, query, deep) ?? 'text in the session' } : r));
        return ok({ sessions: this.withLineage(rows), total: all.length, roots: this.catalog.roots(), progress: this.progress, samples: this.samples.sessions }) as R;
      }
      case 'session:snapshot': {
        const a = args as ArgsOf<'session:snapshot'>;
        return (await this.asJob('open', `Opening ${basename(a.path)}`, a.path, async (job) => {
          const o = await this.open(a.path, job);
          if (!o.ok) return o;
          const options = this.analyzeOptions(o.value, a.withSpent ?? false, a.model);
          const cwd = o.value.summary.cwd;
          const mapped = this.repoRootFor(cwd);
          // An unmapped drop's cwd was not looked up: "missing here" would be wrong, the note says why.
          const hideRepoMissing = o.value.upload && !mapped;
          const r = await this.work.run({ op: 'snapshot', ref: o.value.ref, options, hideRepoMissing }, this.runOptions(job, o.value.ref.key));
          if (r === 'missing' || !r.view) return this.gone(o.value);
          const repoNote = !cwd ? 'no working directory recorded' : mapped ? `${cwd} → ${mapped}` : cwd;
          const note = hideRepoMissing ? `${cwd ?? 'no working directory recorded'} (not looked up on this machine: map it to a folder to prove gone and drift)` : repoNote;
          const listed = o.value.upload ? null : this.catalog.update(a.path);
          return ok({
            // As the work thread wrote it: see handleWire.
            snapshot: rawJson(r.view.json) as unknown as ClassifiedSnapshot,
            keeping: listed ? { retention: listed.retention, kept: listed.kept } : null,
            figures: r.view.figures,
            lineage: this.lineageOf(r.view.head),
            external: o.value.external,
            repoNote: note,
            bytes: r.summary.size,
            analysedAt: new Date().toISOString(),
            context: r.view.context,
            cost: r.view.cost,
            turnAdditions: r.view.turnAdditions,
          });
        })) as R;
      }
      case 'session:cost': {
        const o = await this.open((args as ArgsOf<'session:cost'>).path);
        if (!o.ok) return o as R;
        const r = await this.work.run({ op: 'cost', ref: o.value.ref }, { affinity: o.value.ref.key });
        return (r === 'missing' ? this.gone(o.value) : ok(r)) as R;
      }
      case 'session:conversation': {
        const o = await this.open((args as ArgsOf<'session:conversation'>).path);
        if (!o.ok) return o as R;
        const r = await this.work.run({ op: 'conversation', ref: o.value.ref, options: this.analyzeOptions(o.value, false) }, { affinity: o.value.ref.key });
        return (r === 'missing' ? this.gone(o.value) : ok(r)) as R;
      }
      case 'segment:detail': {
        const a = args as ArgsOf<'segment:detail'>;
        const o = await this.open(a.path);
        if (!o.ok) return o as R;
        const r = await this.work.run({ op: 'detail', ref: o.value.ref, segmentId: a.segmentId, options: this.analyzeOptions(o.value, false) }, { affinity: o.value.ref.key });
        if (r === 'missing') return this.gone(o.value) as R;
        if (r === 'no-segment') return fail('not_found', 'That segment is no longer in the window (the session changed).', 'Reopen the session.') as R;
        return ok(r) as R;
      }
      case 'fork:preview':
      case 'fork:write': {
        const a = args as ArgsOf<'fork:preview'>;
        if (a.path.startsWith(UPLOAD_PREFIX)) {
          return fail('refused', 'A dropped file can be inspected but not forked: it has no project folder here.', 'Open the session from the list (or by path in the desktop app) to fork it.') as R;
        }
        const kind = channel === 'fork:preview' ? 'fork-preview' : 'fork-write';
        return (await this.asJob(kind, channel === 'fork:preview' ? 'Checking the fork' : 'Writing the fork', a.path, async (job) => {
          const o = await this.open(a.path, job);
          if (!o.ok) return o;
          const input = { path: o.value.ref.path as string, repoRoot: this.repoRootFor(o.value.summary.cwd), classes: a.classes, protectTail: a.protectTail, dataDir: this.options.dataDir };
          const run = this.runOptions(job, o.value.ref.key);
          if (channel === 'fork:preview') return ok(await this.work.run({ op: 'fork-preview', input }, run));
          const written = await this.work.run({ op: 'fork-write', input }, run);
          if (!written.ok && job.signal.aborted) return fail('cancelled', 'Cancelled: the fork was not written.', 'Nothing was written.');
          if (!written.ok) {
            const failing = written.checks.filter((c) => !c.ok).map((c) => `${c.label}: ${c.detail}`);
            return fail('refused', `Nothing was written. ${written.message}`, failing.join('; ') || undefined);
          }
          await this.announce(written.value.path);
          return ok(written.value);
        })) as R;
      }
      case 'fork:verify': {
        const a = args as ArgsOf<'fork:verify'>;
        const admitted = this.grants.admit(a.path);
        if (!admitted.ok) return admitted as R;
        return (await this.asJob('fork-verify', 'Checking the fork', a.path, async (job) =>
          this.forkResult(await this.work.run({ op: 'fork-verify', path: admitted.value, dataDir: this.options.dataDir }, this.runOptions(job))),
        )) as R;
      }
      case 'fork:undo': {
        const a = args as ArgsOf<'fork:undo'>;
        const admitted = this.grants.admit(a.path);
        if (!admitted.ok) return admitted as R;
        return (await this.asJob('fork-undo', 'Restoring the original', a.path, async (job) => {
          const r = await this.work.run({ op: 'fork-undo', path: admitted.value, dataDir: this.options.dataDir, repoMap: { ...this.repoMap } }, this.runOptions(job));
          if (r.ok) await this.announce(r.value.path);
          return this.forkResult(r);
        })) as R;
      }
      case 'fork:payload': {
        const a = args as ArgsOf<'fork:payload'>;
        const admitted = this.grants.admit(a.path);
        if (!admitted.ok) return admitted as R;
        return this.forkResult(await this.work.run({ op: 'fork-payload', path: admitted.value, segmentId: a.segmentId, dataDir: this.options.dataDir })) as R;
      }
      case 'job:cancel': {
        const a = args as ArgsOf<'job:cancel'>;
        return ok({ cancelled: this.jobs.cancel(a.id) }) as R;
      }
      case 'session:compactions':
      case 'compaction:item':
      case 'compaction:find': {
        const a = args as ArgsOf<'session:compactions'>;
        return (await this.asJob<unknown>('compactions', 'Reading the compactions', a.path, async (job) => {
          const o = await this.open(a.path, job);
          if (!o.ok) return o;
          const at = this.analyzeOptions(o.value, false);
          const subject = { repoRoot: at.repoRoot, diskless: at.diskless };
          const run = this.runOptions(job, o.value.ref.key);
          const r =
            channel === 'session:compactions'
              ? await this.work.run({ op: 'compactions', ref: o.value.ref, ...subject }, run)
              : channel === 'compaction:item'
                ? await this.work.run({ op: 'compaction-item', ref: o.value.ref, ...subject, ...pick(args as ArgsOf<'compaction:item'>) }, run)
                : await this.work.run({ op: 'compaction-find', ref: o.value.ref, ...subject, query: (args as ArgsOf<'compaction:find'>).query }, run);
          return r === 'missing' ? this.gone(o.value) : (r as Result<unknown>);
        })) as R;
      }
      case 'file:open':
        return (await this.fileOpen(args as ArgsOf<'file:open'>)) as R;
      case 'session:keep': {
        const outcomes = this.keeping.keep((args as ArgsOf<'session:keep'>).paths);
        for (const k of outcomes) if (k.status === 'kept') await this.rowChanged(k.path, 'changed');
        return ok({ outcomes }) as R;
      }
      case 'session:restore': {
        const a = args as ArgsOf<'session:restore'>;
        const r = this.keeping.restore(a.path);
        if (!r.ok) return r as R;
        // The archive's copy leaves the list and the original comes back in its place.
        await this.refresh();
        if (a.path !== r.value.path) await this.rowChanged(a.path, 'removed');
        await this.announce(r.value.path);
        return r as R;
      }
      case 'retention:info':
        return ok(this.keeping.info()) as R;
      case 'retention:auto-keep':
        return ok(this.keeping.setAutoKeep((args as ArgsOf<'retention:auto-keep'>).enabled)) as R;
      case 'repo:map': {
        const a = args as ArgsOf<'repo:map'>;
        let folder: string | null = null;
        if (a.folder !== null) {
          if (!isAbsolute(a.folder)) return fail('bad_args', 'Give the folder as an absolute path; a relative path is refused.') as R;
          const checked = checkMappingFolder(a.folder);
          // A refused mapping saves nothing.
          if (!checked.ok) return fail('not_found', `Not mapped: ${checked.reason}.`, 'Give the folder that holds the project now.') as R;
          folder = checked.folder;
        }
        if (folder === null) delete this.repoMap[a.cwd];
        else this.repoMap[a.cwd] = folder;
        // Kept across restarts, and applied to the list's figures by the next analysis.
        this.catalog.saveMapping(a.cwd, folder);
        void this.refresh();
        return ok(this.info()) as R;
      }
    }
    return fail('unknown_channel', `unknown channel ${channel}`) as R;
  }

  private info(): HostInfo {
    return {
      mode: this.options.mode,
      version: this.options.version ?? '0.1.0',
      roots: this.catalog.roots(),
      dataDir: this.options.dataDir,
      repoMap: { ...this.repoMap },
    };
  }

  private refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    // A job the window can cancel: files not read yet are left for the next refresh.
    const job = this.jobs.start('index', 'Indexing sessions', undefined, 'files');
    this.refreshing = this.catalog
      .refresh((p) => {
        this.progress = p;
        this.emit('index:progress', p);
        if (p.phase !== 'done') job.progress(p.current ?? 'Indexing', p.done, p.total);
      }, job.signal)
      .then(() => job.end(job.signal.aborted ? 'cancelled' : 'done'))
      .catch((error: unknown) => {
        job.end('failed');
        // A refresh that fails (the index locked past its wait, a full disk) must not take the
        // server down with an unhandled rejection: say so, keep the list as it was.
        this.progress = { phase: 'done', done: 0, total: 0, current: `The session list could not be refreshed: ${(error as Error).message}` };
        this.emit('index:progress', this.progress);
      })
      .finally(() => {
        this.refreshing = null;
        // What the refresh found idle (or near its deletion date) is kept now, when the setting is on.
        void this.keeping.autoKeepNow();
      });
    return this.refreshing;
  }

  /** Tells the window a row changed (kept), appeared or went (an archive copy replaced by its restored original). */
  private async rowChanged(path: string, reason: 'changed' | 'added' | 'removed'): Promise<void> {
    this.opened.delete(path);
    if (reason === 'added') return this.announce(path);
    const row = reason === 'removed' ? null : this.catalog.update(path);
    this.emit('session:changed', { path, row: row ? (this.withLineage([row])[0] ?? row) : null, reason });
  }

  private emit<E extends EventChannel>(event: E, payload: EventMap[E]): void {
    for (const l of this.listeners) {
      try {
        l(event, payload);
      } catch {
        // A listener that throws must not stop the others.
      }
    }
  }

  /** The folder a recorded working directory is mapped to on this machine; null when it is not mapped. */
  repoRootFor(cwd: string | null): string | null {
    const mapped = folderFor(cwd, this.repoMap);
    return mapped === cwd ? null : mapped;
  }

  /** A new session file (a fork, a restored original): indexed now and announced to the window. */
  /** A session this run wrote (a fork, an undo): granted to the window and added to the list. */
  private async announce(path: string): Promise<void> {
    this.grants.grant(path);
    const row = this.catalog.add ? await this.catalog.add(path) : this.catalog.update(path);
    this.emit('session:changed', { path, row: row ? (this.withLineage([row])[0] ?? row) : null, reason: 'added' });
  }

  /** A fork operation's result as the CLI reports it: a fork or segment that does not exist, or a refusal. */
  private forkResult<T>(r: { ok: true; value: T } | { ok: false; bad: boolean; message: string }): Result<T> {
    if (r.ok) return ok(r.value);
    return r.bad ? fail('not_found', r.message) : fail('refused', r.message, 'Nothing was changed.');
  }

  private lineage(): ForkLineage {
    return this.options.engine.lineage(this.options.dataDir);
  }

  /** Rows that are forks link to their original; originals list their forks (from the archive's manifests). */
  private withLineage(rows: SessionRow[]): SessionRow[] {
    return rowsWithLineage(rows, this.lineage(), () => this.catalog.list());
  }

  private lineageOf(head: SnapshotHead): ForkLineageView {
    return snapshotLineage(head, this.lineage(), () => this.catalog.list());
  }

  /** The thread work of a request, as a job the window can follow and cancel; a cancelled one answers so. */
  private async asJob<T>(kind: Parameters<Jobs['run']>[0], label: string, path: string, work: (job: Job) => Promise<Result<T>>): Promise<Result<T>> {
    try {
      return await this.jobs.run(kind, label, path, work);
    } catch (error) {
      if (isCancelled(error)) return fail('cancelled', 'Cancelled.', 'Nothing was written.');
      throw error;
    }
  }

  private runOptions(job: Job, affinity?: string): { affinity?: string; signal: AbortSignal; onProgress: (stage: string, done: number, total: number) => void } {
    return { ...(affinity ? { affinity } : {}), signal: job.signal, onProgress: (stage, done, total) => job.progress(stage, done, total) };
  }

  /**
   * How a session is analysed: in its mapped folder, else its recorded one — never on disk for a
   * dropped file that is not mapped (proving "gone" for paths its bytes name would tell whoever sent
   * them which files exist here).
   */
  private analyzeOptions(o: Opened, withSpent: boolean, model?: string): AnalyzeOptions {
    const repoRoot = this.repoRootFor(o.summary.cwd);
    return { repoRoot, withSpent, diskless: o.upload && repoRoot === null, ...(model !== undefined ? { model } : {}) };
  }

  private gone(o: Opened): Result<never> {
    this.opened.delete(o.ref.key);
    return fail('not_found', 'That dropped file is no longer open.', 'Drop it again.');
  }

  /** Opens (or finds open) a session by path or upload key, in a work thread; a path must be admitted by the grant list. */
  private async open(path: string, job?: Job): Promise<Result<Opened>> {
    if (path.startsWith(UPLOAD_PREFIX)) {
      const hit = this.opened.get(path);
      return hit ? ok(hit) : fail('not_found', 'That dropped file is no longer open.', 'Drop it again.');
    }
    if (extname(path).toLowerCase() !== '.jsonl') return fail('not_jsonl', notJsonlMessage(path), 'Agents keep sessions as .jsonl files (Claude Code under ~/.claude/projects, Codex CLI under ~/.codex/sessions).');
    const admitted = this.grants.admit(path);
    if (!admitted.ok) return admitted;
    const real = admitted.value;
    let st;
    try {
      st = statSync(real);
    } catch {
      return fail('not_found', `${path} does not exist (any more).`, 'Refresh the session list.');
    }
    if (!st.isFile()) return fail('unreadable', `${path} is not a regular file.`);
    const ref: SessionRef = { key: path, path: real };
    const summary = await this.work.run({ op: 'open', ref }, job ? this.runOptions(job, path) : { affinity: path });
    if (summary.fatal) return fail('not_a_transcript', summary.fatal, `Glassbox reads session transcripts of ${this.agentNames()}.`);
    const entry: Opened = { ref, summary, external: !this.catalog.roots().some((r) => path.startsWith(r + '/')), upload: false };
    this.remember(path, entry);
    return ok(entry);
  }

  private async fileOpen(args: ArgsOf<'file:open'>): Promise<Result<FileOpened>> {
    if ('path' in args) {
      // In the desktop app a path arrives only from the Open dialog or a drop: the person chose it.
      // In a browser there is no such path (a drop sends bytes), so only listed files open by path.
      if (this.options.mode === 'electron' && isAbsolute(args.path)) this.grants.grant(args.path);
      return this.asJob('open', `Opening ${basename(args.path)}`, args.path, async (job) => {
        const o = await this.open(args.path, job);
        if (!o.ok) return o;
        const s = o.value.summary;
        return ok({ path: args.path, title: s.title ?? s.firstPrompt?.slice(0, 140) ?? basename(args.path), sessionId: s.sessionId, problems: s.problems.map(positionsOnly) });
      });
    }
    if (extname(args.name).toLowerCase() !== '.jsonl') {
      return fail('not_jsonl', notJsonlMessage(args.name), 'Drop a session transcript: a .jsonl file (Claude Code: ~/.claude/projects/<project>/; Codex CLI: ~/.codex/sessions/).');
    }
    const key = `${UPLOAD_PREFIX}${createHash('sha256').update(args.text, 'utf8').digest('hex').slice(0, 16)}/${basename(args.name)}`;
    const summary = await this.work.run({ op: 'upload', key, name: args.name, text: args.text }, { affinity: key });
    if (summary.fatal) return fail('not_a_transcript', summary.fatal, `Glassbox reads session transcripts of ${this.agentNames()}; nothing was written.`);
    this.remember(key, { ref: { key, path: null }, summary, external: true, upload: true });
    return ok({ path: key, title: summary.title ?? summary.firstPrompt?.slice(0, 140) ?? args.name, sessionId: summary.sessionId, problems: summary.problems.map(positionsOnly) });
  }

  /** "Claude Code and Codex CLI": the agents this host reads, for messages. */
  private agentNames(): string {
    const names = this.options.agents.agents.map((a) => a.format.label);
    return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
  }

  private remember(key: string, entry: Opened): void {
    this.opened.delete(key);
    this.opened.set(key, entry);
    while (this.opened.size > MAX_OPEN) this.opened.delete(this.opened.keys().next().value as string);
  }
}

function pick(a: ArgsOf<'compaction:item'>): { agentId: string | null; index: number; segmentId: string } {
  return { agentId: a.agentId, index: a.index, segmentId: a.segmentId };
}

function notJsonlMessage(name: string): string {
  const ext = extname(name);
  return `${basename(name)} is not a session transcript: Glassbox opens .jsonl files${ext ? `, and this is a ${ext} file` : ''}. Nothing was written.`;
}
