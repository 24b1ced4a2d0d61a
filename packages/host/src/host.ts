import type { AgentRegistry } from '@glassbox/core';
import { folderFor } from '@glassbox/analysis';
import type { ForkLineage } from '@glassbox/engine';
import { rowsWithLineage, snapshotLineage, type SnapshotHead } from './lineage';
import {
  fail,
  isInvokeChannel,
  parseRawJson,
  validateArgs,
  type ArgsOf,
  type EventChannel,
  type EventMap,
  type ForkLineageView,
  type HostInfo,
  type HostSync,
  type IndexProgress,
  type InvokeChannel,
  type Result,
  type ResultOf,
  type SessionChanged,
  type SessionRow,
} from '@glassbox/contract';
import type { SessionCatalog } from './catalog';
import { channelHandlers } from './channels';
import type { HostContext } from './channels/context';
import type { ChannelHandlers } from './channels/handlers';
import type { Glassbox } from '@glassbox/engine';
import { Grants } from './grants';
import { Jobs } from './jobs';
import { Keeping } from './keeping';
import { OpenSessions } from './open-sessions';
import { loadSamples, type SampleSet } from './samples';
import { WorkHandler } from './work/handler';
import { WorkPool } from './work/pool';

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
  /** The application layer (made for `dataDir`: see hostGlassbox). */
  glassbox: Glassbox;
  /** The session list's source (the store's index; see createHost). */
  catalog: (host: { repoRootFor: (cwd: string | null) => string | null }) => SessionCatalog;
  version?: string;
  /** Start the file watcher (live rows). */
  watch?: boolean;
  /**
   * Threads for the heavy work (parsing, analysis, forks): 0 runs it on the thread that answers
   * requests (tests); the shells use two (see createHost). `workerUrl`: a built work-thread script.
   * `follow` (default true): an open session that grows is read from where it was (false: whole again).
   */
  work?: { threads: number; workerUrl?: URL; follow?: boolean };
  /** A job is shown to the window once it has run this long (default 200 ms: quick work never flickers into view). */
  jobShowAfterMs?: number;
}

type Listener = <E extends EventChannel>(event: E, payload: EventMap[E]) => void;

/**
 * The engine host: every IPC channel implemented against the engine packages, with no Electron in
 * sight. Electron runs it in a utility process; `glassbox ui` serves it over HTTP. It holds the state
 * (catalog, grants, open sessions, jobs, work threads), its lifecycle and events, and validates and
 * answers each request; the handlers themselves live in `channels/`, one area module each.
 */
export class EngineHost {
  private readonly listeners = new Set<Listener>();
  private readonly sessions: OpenSessions;
  private readonly handlers: ChannelHandlers;
  private readonly jobs: Jobs;
  private readonly work: WorkPool;
  private readonly repoMap: Record<string, string>;
  private readonly samples: SampleSet;
  private readonly catalog: SessionCatalog;
  private readonly grants: Grants;
  private progress: IndexProgress = { phase: 'idle', done: 0, total: 0 };
  /** Moves on with every list change announced (index progress, a row changed), which carries it: see HostSync. */
  private version = 0;
  private refreshing: Promise<void> | null = null;
  private stopWatch: (() => void) | null = null;
  private readonly keeping: Keeping;

  constructor(private readonly options: HostOptions) {
    this.jobs = new Jobs((p) => this.emit('job:progress', p), options.jobShowAfterMs);
    const follow = options.work?.follow !== false;
    this.work = new WorkPool(new WorkHandler(options.agents, options.glassbox, { follow }), options.work?.threads ?? 0, options.dataDir, options.work?.workerUrl, follow);
    this.samples = loadSamples(options.samplesDir);
    this.repoMap = { ...this.samples.repoMap, ...(options.repoMap ?? {}) };
    const repoRootFor = (cwd: string | null) => this.repoRootFor(cwd);
    this.catalog = options.catalog({ repoRootFor });
    // Mappings saved by an earlier run; this run's (--repo) take precedence.
    this.repoMap = { ...this.samples.repoMap, ...(this.catalog.savedMappings?.() ?? {}), ...(options.repoMap ?? {}) };
    this.grants = new Grants(
      () => this.catalog.roots(),
      (path) => this.catalog.has?.(path) ?? false,
    );
    for (const s of this.samples.sessions) this.grants.grant(s.path);
    this.keeping = new Keeping({
      dataDir: options.dataDir,
      glassbox: options.glassbox,
      catalog: this.catalog,
      admit: (path) => this.grants.admit(path),
      changed: (path, reason) => this.rowChanged(path, reason),
      repoRootFor,
    });
    this.sessions = new OpenSessions({ work: this.work, grants: this.grants, agents: options.agents, roots: () => this.catalog.roots(), repoRootFor, scoped: options.mode === 'browser' });
    this.handlers = channelHandlers(this.context());
  }

  /** What the channel handlers see of this host (channels/context.ts). */
  private context(): HostContext {
    return {
      mode: this.options.mode,
      dataDir: this.options.dataDir,
      catalog: this.catalog,
      samples: this.samples,
      grants: this.grants,
      keeping: this.keeping,
      jobs: this.jobs,
      work: this.work,
      sessions: this.sessions,
      repoMap: this.repoMap,
      progress: () => this.progress,
      version: () => this.version,
      sync: () => this.sync(),
      info: () => this.info(),
      refresh: () => this.refresh(),
      repoRootFor: (cwd) => this.repoRootFor(cwd),
      rowChanged: (path, reason) => this.rowChanged(path, reason),
      announce: (path) => this.announce(path),
      withLineage: (rows) => this.withLineage(rows),
      lineageOf: (head) => this.lineageOf(head),
    };
  }

  /** Indexes the roots and (optionally) starts watching them. Resolves when the first pass is done. */
  start(): Promise<void> {
    if (this.options.watch) {
      this.stopWatch = this.catalog.watch((change) => {
        this.sessions.forget(change.path);
        const row = change.row !== undefined ? change.row : change.reason === 'removed' ? null : this.catalog.update(change.path);
        this.changed({ path: change.path, row, reason: change.reason });
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

  /**
   * The host's state now. A transport sends it before anything else on a new event stream, in the
   * same turn as it starts listening, so no event falls between what the window was told and what it hears.
   */
  sync(): HostSync {
    return { progress: this.progress, jobs: this.jobs.visible(), version: this.version };
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

  /** The channel's handler from the map (channels/): every channel has one, or the host does not compile. */
  private dispatch<C extends InvokeChannel>(channel: C, args: ArgsOf<C>): Promise<Result<ResultOf<C>>> {
    return this.handlers[channel](args);
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
        this.announceProgress(p);
        if (p.phase !== 'done') job.progress(p.current ?? 'Indexing', p.done, p.total);
      }, job.signal)
      .then(() => job.end(job.signal.aborted ? 'cancelled' : 'done'))
      .catch((error: unknown) => {
        job.end('failed');
        // A refresh that fails (the index locked past its wait, a full disk) must not take the
        // server down with an unhandled rejection: say so, keep the list as it was.
        this.announceProgress({ phase: 'done', done: 0, total: 0, current: `The session list could not be refreshed: ${(error as Error).message}` });
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
    this.sessions.forget(path);
    if (reason === 'added') return this.announce(path);
    const row = reason === 'removed' ? null : this.catalog.update(path);
    this.changed({ path, row: row ? (this.withLineage([row])[0] ?? row) : null, reason });
  }

  /** Index progress, stamped with the list version it moves the host to. */
  private announceProgress(p: IndexProgress): void {
    this.progress = { ...p, version: ++this.version };
    this.emit('index:progress', this.progress);
  }

  /** A row that changed, appeared or went, stamped with the list version it moves the host to. */
  private changed(change: Omit<SessionChanged, 'version'>): void {
    this.emit('session:changed', { ...change, version: ++this.version });
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

  /** A session this run wrote (a fork, an undo): granted to the window and added to the list. */
  private async announce(path: string): Promise<void> {
    this.grants.grant(path);
    const row = this.catalog.add ? await this.catalog.add(path) : this.catalog.update(path);
    this.changed({ path, row: row ? (this.withLineage([row])[0] ?? row) : null, reason: 'added' });
  }

  private lineage(): ForkLineage {
    return this.options.glassbox.forks.lineage();
  }

  /** Rows that are forks link to their original; originals list their forks (from the archive's manifests). */
  private withLineage(rows: SessionRow[]): SessionRow[] {
    return rowsWithLineage(rows, this.lineage(), () => this.catalog.list());
  }

  private lineageOf(head: SnapshotHead): ForkLineageView {
    return snapshotLineage(head, this.lineage(), () => this.catalog.list());
  }
}
