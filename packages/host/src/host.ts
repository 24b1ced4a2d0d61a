import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, extname, isAbsolute } from 'node:path';
import { agentForFile } from '@glassbox/agents';
import type { AgentFormat, AgentRegistry, LoadedSession } from '@glassbox/core';
import { isFatal, windowFigures, type ClassifiedSnapshot, type Session } from '@glassbox/core';
import { folderFor } from '@glassbox/analysis';
import { checkMappingFolder } from '@glassbox/store';
import type { ForkLineage } from '@glassbox/store/fork';
import { rowsWithLineage, snapshotLineage } from './lineage';
import {
  fail,
  isInvokeChannel,
  ok,
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
import { positionsOnly } from './problem-text';
import { loadSamples, type SampleSet } from './samples';
import { detailOf } from './segment-detail';
import { additionsOf, contextView, conversationView, costSummary, costView } from './session-views';
import { CompactionChannels, type CompactionSubject } from './compactions';
import { fileBytes, memoryBytes, parseBuffer, type SourceBytes } from './source-bytes';
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
}

type Listener = <E extends EventChannel>(event: E, payload: EventMap[E]) => void;

interface Opened {
  size: number;
  mtimeMs: number;
  loaded: LoadedSession;
  bytes: SourceBytes;
  external: boolean;
  /** Dropped bytes: their recorded working directory is not this machine's unless mapped (repo:map). */
  upload: boolean;
  /** By `withSpent` and model (see `snapshotOf`). */
  snapshots: Map<string, ClassifiedSnapshot>;
  /** The compaction x-ray, made on first use. */
  compactions: CompactionSubject['cache'];
}

const UPLOAD_PREFIX = 'upload:';
const MAX_OPEN = 6;

/**
 * The engine host: every IPC channel implemented against the engine packages, with no Electron in
 * sight. Electron runs it in a utility process; `glassbox ui` serves it over HTTP.
 */
export class EngineHost {
  private readonly listeners = new Set<Listener>();
  private readonly opened = new Map<string, Opened>();
  private readonly uploads = new Map<string, Buffer>();
  private readonly repoMap: Record<string, string>;
  private readonly samples: SampleSet;
  private readonly catalog: SessionCatalog;
  private readonly grants: Grants;
  private progress: IndexProgress = { phase: 'idle', done: 0, total: 0 };
  private refreshing: Promise<void> | null = null;
  private stopWatch: (() => void) | null = null;
  private readonly keeping: Keeping;
  private readonly compactionChannels: CompactionChannels;

  constructor(private readonly options: HostOptions) {
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
    this.compactionChannels = new CompactionChannels(options.agents, options.engine);
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
    return this.refresh();
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
  }

  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One request from the renderer: validated, dispatched, and always answered with a Result. */
  async handle(channel: unknown, rawArgs: unknown): Promise<Result<unknown>> {
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
        const o = this.open(a.path);
        if (!o.ok) return o as R;
        const snapshot = this.snapshotOf(o.value, a.withSpent ?? false, a.model);
        const cwd = o.value.loaded.session.cwd;
        const mapped = this.repoRootOf(o.value);
        const repoNote = !cwd ? 'no working directory recorded' : mapped ? `${cwd} → ${mapped}` : cwd;
        const note = o.value.upload && !mapped ? `${cwd ?? 'no working directory recorded'} (not looked up on this machine: map it to a folder to prove gone and drift)` : repoNote;
        // An unmapped drop's cwd was not looked up: "missing here" would be wrong, the note says why.
        const problems = snapshot.problems.filter((p) => !(o.value.upload && !mapped && p.code === 'repo_missing')).map(positionsOnly);
        const shown = { ...snapshot, problems };
        const listed = o.value.upload ? null : this.catalog.update(a.path);
        const format = this.formatOf(o.value);
        return ok({
          snapshot: shown,
          keeping: listed ? { retention: listed.retention, kept: listed.kept } : null,
          figures: windowFigures(shown),
          lineage: this.lineageOf(snapshot),
          external: o.value.external,
          repoNote: note,
          bytes: o.value.size,
          analysedAt: new Date().toISOString(),
          context: contextView(format, snapshot, o.value.loaded.session),
          cost: costSummary(costView(format, o.value.loaded)),
          turnAdditions: additionsOf(snapshot),
        }) as R;
      }
      case 'session:cost': {
        const o = this.open((args as ArgsOf<'session:cost'>).path);
        if (!o.ok) return o as R;
        return ok(costView(this.formatOf(o.value), o.value.loaded)) as R;
      }
      case 'session:conversation': {
        const o = this.open((args as ArgsOf<'session:conversation'>).path);
        if (!o.ok) return o as R;
        // The window as last shown (its model and classes), else the default one.
        const snapshot = [...o.value.snapshots.values()].pop() ?? this.snapshotOf(o.value, false);
        return ok(conversationView(o.value.loaded, snapshot, o.value.bytes, this.formatOf(o.value))) as R;
      }
      case 'segment:detail': {
        const a = args as ArgsOf<'segment:detail'>;
        const o = this.open(a.path);
        if (!o.ok) return o as R;
        const snapshot = [...o.value.snapshots.values()].find((s) => s.segments.some((g) => g.id === a.segmentId)) ?? this.snapshotOf(o.value, false);
        const segment = snapshot.segments.find((s) => s.id === a.segmentId);
        if (!segment) return fail('not_found', 'That segment is no longer in the window (the session changed).', 'Reopen the session.') as R;
        return ok(detailOf(o.value.loaded.session, snapshot, segment, o.value.bytes, this.formatOf(o.value))) as R;
      }
      case 'fork:preview':
      case 'fork:write': {
        const a = args as ArgsOf<'fork:preview'>;
        if (a.path.startsWith(UPLOAD_PREFIX)) {
          return fail('refused', 'A dropped file can be inspected but not forked: it has no project folder here.', 'Open the session from the list (or by path in the desktop app) to fork it.') as R;
        }
        const o = this.open(a.path);
        if (!o.ok) return o as R;
        const input = {
          path: o.value.realPath,
          session: o.value.loaded.session,
          snapshot: this.snapshotOf(o.value, a.classes.includes('spent')),
          classes: a.classes,
          protectTail: a.protectTail,
          dataDir: this.options.dataDir,
        };
        if (channel === 'fork:preview') return ok(this.options.engine.previewFork(input)) as R;
        const written = this.options.engine.writeFork(input);
        if (!written.ok) {
          const failing = written.checks.filter((c) => !c.ok).map((c) => `${c.label}: ${c.detail}`);
          return fail('refused', `Nothing was written. ${written.message}`, failing.join('; ') || undefined) as R;
        }
        await this.announce(written.value.path);
        return ok(written.value) as R;
      }
      case 'fork:verify': {
        const a = args as ArgsOf<'fork:verify'>;
        return this.forkResult(this.options.engine.verifyFork(a.path, this.options.dataDir)) as R;
      }
      case 'fork:undo': {
        const a = args as ArgsOf<'fork:undo'>;
        const r = this.options.engine.undoFork(a.path, this.options.dataDir, (cwd) => this.repoRootFor(cwd));
        if (r.ok) await this.announce(r.value.path);
        return this.forkResult(r) as R;
      }
      case 'fork:payload': {
        const a = args as ArgsOf<'fork:payload'>;
        return this.forkResult(this.options.engine.forkPayload(a.path, a.segmentId, this.options.dataDir)) as R;
      }
      case 'session:compactions':
      case 'compaction:item':
      case 'compaction:find': {
        const a = args as ArgsOf<'session:compactions'>;
        const o = this.open(a.path);
        if (!o.ok) return o as R;
        const subject = this.compactionSubject(a.path, o.value);
        if (channel === 'session:compactions') return this.compactionChannels.view(subject) as R;
        if (channel === 'compaction:item') {
          const i = args as ArgsOf<'compaction:item'>;
          return this.compactionChannels.item(subject, i.agentId, i.index, i.segmentId) as R;
        }
        return this.compactionChannels.find(subject, (args as ArgsOf<'compaction:find'>).query) as R;
      }
      case 'file:open':
        return this.fileOpen(args as ArgsOf<'file:open'>) as R;
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
        for (const o of this.opened.values()) {
          o.snapshots.clear();
          delete o.compactions.histories;
        }
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
    this.refreshing = this.catalog
      .refresh((p) => {
        this.progress = p;
        this.emit('index:progress', p);
      })
      .catch((error: unknown) => {
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
    return rowsWithLineage(rows, this.lineage(), this.catalog.list());
  }

  private lineageOf(snapshot: ClassifiedSnapshot): ForkLineageView {
    return snapshotLineage(snapshot, this.lineage(), this.catalog.list());
  }

  /**
   * Where a session's recorded working directory is on this machine. A dropped file's cwd is taken
   * only through an explicit mapping: its bytes came from anywhere, and proving "gone" for a path
   * they name would tell whoever sent them which files exist here.
   */
  /** Where a session's working directory is looked up: its mapped folder, else (null) the recorded one — never for a dropped file. */
  private repoRootOf(o: Opened): string | null {
    return this.repoRootFor(o.loaded.session.cwd);
  }

  /** The adapter of the agent that wrote an open session. */
  private formatOf(o: Opened): AgentFormat {
    return this.options.agents.byId(o.loaded.session.agent).format;
  }

  private compactionSubject(key: string, o: Opened & { realPath: string }): CompactionSubject {
    const repoRoot = this.repoRootOf(o);
    const upload = o.upload ? this.uploads.get(key) : undefined;
    return { path: o.realPath, loaded: o.loaded, ...(upload ? { upload } : {}), repoRoot, diskless: o.upload && repoRoot === null, cache: o.compactions };
  }

  private snapshotOf(o: Opened, withSpent: boolean, model?: string): ClassifiedSnapshot {
    const key = `${withSpent ? 'spent' : 'proven'}:${model ?? ''}`;
    const hit = o.snapshots.get(key);
    if (hit) return hit;
    const repoRoot = this.repoRootOf(o);
    const options = { repoRoot, withSpent, diskless: o.upload && repoRoot === null, ...(model !== undefined ? { model } : {}) };
    const snap = this.options.engine.analyze(o.loaded, options);
    o.snapshots.set(key, snap);
    return snap;
  }

  /** Parses (or reuses) a session by path or upload key; a path must be admitted by the grant list. */
  private open(path: string): Result<Opened & { realPath: string }> {
    if (path.startsWith(UPLOAD_PREFIX)) {
      const hit = this.opened.get(path);
      return hit ? ok({ ...hit, realPath: path }) : fail('not_found', 'That dropped file is no longer open.', 'Drop it again.');
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
    const hit = this.opened.get(path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return ok({ ...hit, realPath: real });
    const loaded = agentForFile(this.options.agents, real).locator.load(real);
    const fatal = fatalMessage(loaded.session, this.agentNames());
    if (fatal) return fail('not_a_transcript', fatal, `Glassbox reads session transcripts of ${this.agentNames()}.`);
    const entry: Opened = {
      size: st.size,
      mtimeMs: st.mtimeMs,
      loaded,
      bytes: fileBytes(real),
      // Listed files are not "opened files" (the archive's copies of deleted sessions are listed, outside the roots).
      external: !this.catalog.roots().some((r) => path.startsWith(r + '/')) && !(this.catalog.has?.(path) ?? false),
      upload: false,
      snapshots: new Map(),
      compactions: {},
    };
    this.remember(path, entry);
    return ok({ ...entry, realPath: real });
  }

  private fileOpen(args: ArgsOf<'file:open'>): Result<FileOpened> {
    if ('path' in args) {
      // In the desktop app a path arrives only from the Open dialog or a drop: the person chose it.
      // In a browser there is no such path (a drop sends bytes), so only listed files open by path.
      if (this.options.mode === 'electron' && isAbsolute(args.path)) this.grants.grant(args.path);
      const o = this.open(args.path);
      if (!o.ok) return o;
      const s = o.value.loaded.session;
      return ok({ path: args.path, title: s.title ?? s.firstPrompt?.slice(0, 140) ?? basename(args.path), sessionId: s.id, problems: s.problems.map(positionsOnly) });
    }
    if (extname(args.name).toLowerCase() !== '.jsonl') {
      return fail('not_jsonl', notJsonlMessage(args.name), 'Drop a session transcript: a .jsonl file (Claude Code: ~/.claude/projects/<project>/; Codex CLI: ~/.codex/sessions/).');
    }
    const buf = Buffer.from(args.text, 'utf8');
    const key = `${UPLOAD_PREFIX}${createHash('sha256').update(buf).digest('hex').slice(0, 16)}/${basename(args.name)}`;
    const session = parseBuffer(this.options.agents, buf, args.name, basename(args.name).replace(/\.jsonl$/i, ''));
    const fatal = fatalMessage(session, this.agentNames(), this.recognisedAs(buf));
    if (fatal) return fail('not_a_transcript', fatal, `Glassbox reads session transcripts of ${this.agentNames()}.`);
    this.uploads.set(key, buf);
    this.remember(key, { size: buf.length, mtimeMs: 0, loaded: { session, subagents: [] }, bytes: memoryBytes(buf), external: true, upload: true, snapshots: new Map(), compactions: {} });
    return ok({ path: key, title: session.title ?? session.firstPrompt?.slice(0, 140) ?? args.name, sessionId: session.id, problems: session.problems.map(positionsOnly) });
  }

  /** What a file no registered agent reads was recognised as ("a Codex CLI rollout"), if anything. */
  private recognisedAs(buf: Buffer): string | null {
    const head = buf.toString('utf8', 0, Math.min(buf.length, 64 * 1024)).split('\n').slice(0, 40);
    return this.options.agents.recognise(head).what[0] ?? null;
  }

  /** "Claude Code and Codex CLI": the agents this host reads, for messages. */
  private agentNames(): string {
    const names = this.options.agents.agents.map((a) => a.format.label);
    return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
  }

  private remember(key: string, entry: Opened): void {
    this.opened.delete(key);
    this.opened.set(key, entry);
    while (this.opened.size > MAX_OPEN) {
      const oldest = this.opened.keys().next().value as string;
      this.opened.delete(oldest);
      this.uploads.delete(oldest);
    }
  }
}

function notJsonlMessage(name: string): string {
  const ext = extname(name);
  return `${basename(name)} is not a session transcript: Glassbox opens .jsonl files${ext ? `, and this is a ${ext} file` : ''}. Nothing was written.`;
}

function fatalMessage(session: Session, agents: string, what: string | null = null): string | null {
  if (!isFatal(session.problems)) return null;
  const p = session.problems.find((q) => q.severity === 'error');
  const code = p?.code;
  if (code === 'file_empty') return `${basename(session.path)} is empty: there is no session in it. Nothing was written.`;
  if (code === 'not_a_transcript') {
    return what
      ? `${basename(session.path)} is ${what}, which this version of Glassbox does not read yet (it reads ${agents}). Nothing was written.`
      : `${basename(session.path)} is not a transcript of ${agents}. Nothing was written.`;
  }
  return p?.message ?? 'The file cannot be read.';
}
