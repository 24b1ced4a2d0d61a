import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { agentForFile } from '@glassbox/file-io';
import { CancelledError, isCancelled, isFatal, windowFigures, type AgentFormat, type AgentRegistry, type ClassifiedSnapshot, type LoadedSession, type Session, type SessionFollower } from '@glassbox/core';
import { folderFor } from '@glassbox/analysis';
import { forkJob, type ForkJob, type Glassbox } from '@glassbox/engine';
import { CompactionChannels, type CompactionSubject } from '../compactions';
import { ForkViews } from '../fork-views';
import { snapshotHead } from '../lineage';
import { positionsOnly } from '../problem-text';
import { detailOf } from '../segment-detail';
import { additionsOf, contextView, conversationView, costSummary, costView, exportView } from '../session-views';
import { fileBytes, memoryBytes, parseBuffer, type SourceBytes } from '../source-bytes';
import { SnapshotJson } from './snapshot-json';
import type { AnalyzeOptions, OpenSummary, ResultFor, SessionRef, WorkContext, WorkRequest } from './protocol';

const MAX_OPEN = 6;

interface Held {
  size: number;
  mtimeMs: number;
  loaded: LoadedSession;
  bytes: SourceBytes;
  /** A dropped file's bytes (a file on disk is read back from its path). */
  upload?: Buffer;
  summary: OpenSummary;
  /** By analysis options (see keyOf). */
  snapshots: Map<string, ClassifiedSnapshot>;
  /** The compaction x-ray, by mapped folder: made on first use. */
  compactions: Map<string, CompactionSubject['cache']>;
  /** A file whose agent can follow it: an append is read from where the last read stopped. */
  follower?: SessionFollower;
  /** The window's JSON as last written, kept across appends (what did not change is not written again). */
  json: SnapshotJson;
}

/** How the handler reads a session that changed since it was opened. */
export interface WorkHandlerOptions {
  /**
   * Follow live sessions (default true): an append is parsed on top of what was read and the window
   * analysed again in memory; false reads the file whole again after every change (the benchmark's
   * baseline).
   */
  follow?: boolean;
}

/**
 * The heavy work of the host, done where it cannot hold up a request: parsing and analysing sessions
 * (kept, with their snapshots, for the inspector's details), and planning, writing and checking forks.
 * It runs in a work thread (see pool.ts), or inline for a host without threads. Every long step hears
 * the job's context: progress as bytes are read, and cancellation.
 */
export class WorkHandler {
  private readonly held = new Map<string, Held>();
  private readonly compactionChannels: CompactionChannels;
  private readonly forks: ForkViews;

  constructor(
    private readonly agents: AgentRegistry,
    private readonly glassbox: Glassbox,
    private readonly options: WorkHandlerOptions = {},
  ) {
    this.compactionChannels = new CompactionChannels(glassbox);
    this.forks = new ForkViews(glassbox);
  }

  run<R extends WorkRequest>(request: R, ctx: WorkContext): ResultFor<R> {
    return this.dispatch(request, ctx) as ResultFor<R>;
  }

  private dispatch(r: WorkRequest, ctx: WorkContext): unknown {
    switch (r.op) {
      case 'open':
        return this.open(r.ref, ctx)?.summary ?? missing();
      case 'upload':
        return this.upload(r.key, r.name, r.text);
      case 'snapshot': {
        const h = this.open(r.ref, ctx);
        if (!h) return 'missing';
        if (h.summary.fatal) return { summary: h.summary, view: null };
        const snapshot = this.snapshotOf(h, r.options);
        const problems = snapshot.problems.filter((p) => !(r.hideRepoMissing && p.code === 'repo_missing')).map(positionsOnly);
        const shown = { ...snapshot, problems };
        const format = this.formatOf(h);
        return {
          summary: h.summary,
          view: {
            // Encoded here: the thread that answers requests passes the bytes on without touching them.
            json: h.json.encode(shown),
            figures: windowFigures(shown),
            head: snapshotHead(snapshot),
            context: contextView(format, snapshot, h.loaded.session),
            cost: costSummary(costView(format, h.loaded)),
            // One entry per response: megabytes for a long session, so as bytes too.
            turnAdditions: utf8Json(additionsOf(snapshot)),
          },
        };
      }
      case 'detail': {
        const h = this.open(r.ref, ctx);
        if (!h) return 'missing';
        const snapshot = [...h.snapshots.values()].find((s) => s.segments.some((g) => g.id === r.segmentId)) ?? this.snapshotOf(h, r.options);
        const segment = snapshot.segments.find((s) => s.id === r.segmentId);
        return segment ? detailOf(h.loaded.session, snapshot, segment, h.bytes, this.formatOf(h)) : 'no-segment';
      }
      case 'cost': {
        const h = this.open(r.ref, ctx);
        return h ? costView(this.formatOf(h), h.loaded) : 'missing';
      }
      case 'conversation':
      case 'export': {
        const h = this.open(r.ref, ctx);
        if (!h) return 'missing';
        // The window as last shown (its model and classes), else the default one; the windows before
        // each compaction from the x-ray, which the compaction views share.
        const snapshot = [...h.snapshots.values()].pop() ?? this.snapshotOf(h, r.options);
        const o = r.options;
        const histories = this.compactionChannels.histories(this.compactionSubject(r.ref, h, o.repoRoot, o.diskless, o.readScope));
        const input = { opened: { agent: this.agents.byId(h.loaded.session.agent), loaded: h.loaded }, snapshot, histories, lines: h.bytes };
        return r.op === 'conversation' ? conversationView(this.glassbox, input) : exportView(this.glassbox, input, r.format);
      }
      case 'fork-preview':
        return this.forks.preview(r.input, jobOf(ctx));
      case 'fork-write':
        return this.forks.write(r.input, jobOf(ctx));
      case 'elision-preview':
        return this.forks.elisionPreview(r.input, jobOf(ctx));
      case 'fork-verify':
        return this.forks.verify(r.path, jobOf(ctx));
      case 'fork-write-original':
        return this.forks.undo(r.path, (cwd) => mappedFolder(cwd, r.repoMap), jobOf(ctx));
      case 'fork-remove':
        return this.forks.remove(r.path);
      case 'fork-payload':
        return this.forks.payload(r.path, r.segmentId);
      case 'compactions':
      case 'compaction-item':
      case 'compaction-find': {
        const h = this.open(r.ref, ctx);
        if (!h) return 'missing';
        const subject = this.compactionSubject(r.ref, h, r.repoRoot, r.diskless, r.readScope);
        if (r.op === 'compactions') return this.compactionChannels.view(subject);
        if (r.op === 'compaction-item') return this.compactionChannels.item(subject, r.agentId, r.index, r.segmentId);
        return this.compactionChannels.find(subject, r.query);
      }
      case 'forget':
        this.held.delete(r.key);
        return true;
    }
  }

  /**
   * A session by key: the one held if its file did not change; the held one brought up to date when
   * the file was only appended to (its follower reads the new lines); else parsed now. Null for an
   * upload no longer held.
   */
  private open(ref: SessionRef, ctx: WorkContext): Held | null {
    const hit = this.held.get(ref.key);
    if (ref.path === null) return hit ? this.touch(ref.key, hit) : null;
    const st = statSync(ref.path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return this.touch(ref.key, hit);
    const progress = (done: number, total: number): void => {
      ctx.progress('reading the session', done, total);
      if (ctx.cancelled()) throw new CancelledError('Cancelled: the session was not opened.');
    };
    const followed = hit?.follower?.update({ progress });
    if (hit && followed) return this.touch(ref.key, this.heldOf(ref.path, followed, st.size, st.mtimeMs, hit.follower, hit.json));
    const locator = agentForFile(this.agents, ref.path).locator;
    let follower: SessionFollower | undefined;
    if (this.options.follow !== false && locator.follow) {
      try {
        follower = locator.follow(ref.path, { progress });
      } catch (error) {
        // A file the follower cannot open is read the ordinary way, which says what is wrong with it.
        if (isCancelled(error)) throw error;
      }
    }
    const loaded = follower?.loaded ?? locator.load(ref.path, { progress });
    return this.touch(ref.key, this.heldOf(ref.path, loaded, st.size, st.mtimeMs, follower));
  }

  /** A session read from a file, with nothing analysed yet (an append changes every window's figures). */
  private heldOf(path: string, loaded: LoadedSession, size: number, mtimeMs: number, follower: SessionFollower | undefined, json = new SnapshotJson()): Held {
    const held: Held = { size, mtimeMs, loaded, bytes: fileBytes(path), summary: summaryOf(loaded.session, size, mtimeMs, this.agentNames()), snapshots: new Map(), compactions: new Map(), json };
    if (follower) held.follower = follower;
    return held;
  }

  private upload(key: string, name: string, text: string): OpenSummary {
    const buf = Buffer.from(text, 'utf8');
    const session = parseBuffer(this.agents, buf, name, basename(name).replace(/\.jsonl$/i, ''));
    const summary = summaryOf(session, buf.length, 0, this.agentNames(), () => this.recognisedAs(buf));
    const held: Held = { size: buf.length, mtimeMs: 0, loaded: { session, subagents: [] }, bytes: memoryBytes(buf), upload: buf, summary, snapshots: new Map(), compactions: new Map(), json: new SnapshotJson() };
    if (!held.summary.fatal) this.touch(key, held);
    return held.summary;
  }

  /** The adapter of the agent that wrote a held session. */
  private formatOf(h: Held): AgentFormat {
    return this.agents.byId(h.loaded.session.agent).format;
  }

  /** What a file no registered agent reads was recognised as ("a Codex CLI rollout"), if anything. */
  private recognisedAs(buf: Buffer): string | null {
    const head = buf.toString('utf8', 0, Math.min(buf.length, 64 * 1024)).split('\n').slice(0, 40);
    return this.agents.recognise(head).what[0] ?? null;
  }

  private snapshotOf(h: Held, options: AnalyzeOptions): ClassifiedSnapshot {
    const key = keyOf(options);
    const hit = h.snapshots.get(key);
    if (hit) return hit;
    const snap = this.glassbox.sessions.analyze(h.loaded, options);
    h.snapshots.set(key, snap);
    return snap;
  }

  /** What the compaction channels need of a session; its x-ray is cached per mapped folder. */
  private compactionSubject(ref: SessionRef, h: Held, repoRoot: string | null, diskless: boolean, readScope: readonly string[] | null): CompactionSubject {
    const key = JSON.stringify([repoRoot, diskless, readScope]);
    let cache = h.compactions.get(key);
    if (!cache) {
      cache = {};
      h.compactions.set(key, cache);
    }
    return { path: ref.path ?? ref.key, loaded: h.loaded, ...(h.upload ? { upload: h.upload } : {}), repoRoot, diskless, readScope, cache };
  }

  private touch(key: string, held: Held): Held {
    this.held.delete(key);
    this.held.set(key, held);
    while (this.held.size > MAX_OPEN) this.held.delete(this.held.keys().next().value as string);
    return held;
  }

  /** "Claude Code and Codex CLI": the agents this host reads, for messages. */
  private agentNames(): string {
    const names = this.agents.agents.map((a) => a.format.label);
    return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
  }
}

function missing(): never {
  throw new Error('that session is no longer open');
}

function keyOf(o: AnalyzeOptions): string {
  return JSON.stringify([o.repoRoot, o.withInferred, o.diskless, o.readScope, o.model ?? '']);
}

function jobOf(ctx: WorkContext): ForkJob {
  return forkJob(() => ctx.cancelled(), (stage, done, total) => ctx.progress(stage, done, total));
}

function mappedFolder(cwd: string | null, repoMap: Record<string, string>): string | null {
  const mapped = folderFor(cwd, repoMap);
  return mapped === cwd ? null : mapped;
}

function summaryOf(session: Session, size: number, mtimeMs: number, agents: string, recognisedAs: () => string | null = () => null): OpenSummary {
  return {
    size,
    mtimeMs,
    sessionId: session.id,
    title: session.title,
    firstPrompt: session.firstPrompt,
    cwd: session.cwd,
    agent: session.agent,
    problems: session.problems,
    fatal: fatalMessage(session, agents, recognisedAs),
  };
}

function fatalMessage(session: Session, agents: string, recognisedAs: () => string | null): string | null {
  if (!isFatal(session.problems)) return null;
  const p = session.problems.find((q) => q.severity === 'error');
  const code = p?.code;
  if (code === 'file_empty') return `${basename(session.path)} is empty: there is no session in it. Nothing was written.`;
  if (code === 'not_a_transcript') {
    const what = recognisedAs();
    return what
      ? `${basename(session.path)} is ${what}, which this version of Glassbox does not read yet (it reads ${agents}). Nothing was written.`
      : `${basename(session.path)} is not a transcript of ${agents}. Nothing was written.`;
  }
  return p?.message ?? 'The file cannot be read.';
}

/** A value as JSON in UTF-8 (a buffer of its own, so it can be moved to the host's thread). */
function utf8Json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}
