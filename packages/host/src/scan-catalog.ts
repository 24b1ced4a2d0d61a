import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import { discoverFiles, loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { isFatal, windowFigures } from '@glassbox/core';
import type { IndexProgress, SessionRow } from '@glassbox/contract';
import type { CatalogChange, SessionCatalog } from './catalog';
import type { Engine } from './engine';

/** A session written to in the last few minutes shows the live dot. */
export const LIVE_MS = 5 * 60 * 1000;

interface Cached {
  size: number;
  mtimeMs: number;
  row: SessionRow;
  notSession?: boolean;
}

/**
 * The catalog without a database: lists session files under the roots and summarises each one with
 * the real parser and analysis, caching by (size, mtime) so that an unchanged file is never re-read.
 */
export class ScanCatalog implements SessionCatalog {
  private readonly cache = new Map<string, Cached>();
  private stopWatch: (() => void) | null = null;

  constructor(
    private readonly rootList: string[],
    private readonly engine: Engine,
    private readonly repoRootFor: (cwd: string | null) => string | null,
    private readonly now: () => number = Date.now,
  ) {}

  roots(): string[] {
    return [...this.rootList];
  }

  list(): SessionRow[] {
    // Files that are not transcripts (empty, or no user, assistant or session record) are not sessions.
    return [...this.cache.values()].filter((c) => !c.notSession).map((c) => this.withLive(c));
  }

  async refresh(onProgress: (p: IndexProgress) => void): Promise<void> {
    onProgress({ phase: 'scanning', done: 0, total: 0 });
    const files = discoverFiles(this.rootList).filter((f) => f.kind === 'session');
    const seen = new Set(files.map((f) => f.path));
    for (const path of this.cache.keys()) if (!seen.has(path)) this.cache.delete(path);
    let done = 0;
    for (const file of files) {
      onProgress({ phase: 'indexing', done, total: files.length, current: 'Reading' });
      this.update(file.path);
      done++;
      // Let the host answer requests between files.
      await new Promise<void>((r) => setImmediate(r));
    }
    onProgress({ phase: 'done', done, total: files.length });
  }

  has(path: string): boolean {
    return this.cache.has(path);
  }

  update(path: string): SessionRow | null {
    let st;
    try {
      st = statSync(path);
    } catch {
      this.cache.delete(path);
      return null;
    }
    const hit = this.cache.get(path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return this.withLive(hit);
    const { row, notSession } = this.summarise(path, st.size, st.mtimeMs);
    const entry = { size: st.size, mtimeMs: st.mtimeMs, row, notSession };
    this.cache.set(path, entry);
    return this.withLive(entry);
  }

  /** A plain scan keeps no mappings across restarts; the sessions under the cwd are summarised again. */
  saveMapping(cwd: string): void {
    for (const [path, c] of this.cache) {
      if (c.row.cwd === cwd || c.row.cwd?.startsWith(cwd + '/')) this.cache.delete(path);
    }
  }

  watch(onChange: (change: CatalogChange) => void): () => void {
    if (this.stopWatch) return this.stopWatch;
    const watcher = chokidarWatch(this.rootList, {
      ignoreInitial: true,
      depth: 1,
      ignored: (p, stats) => stats?.isFile() === true && !p.endsWith('.jsonl'),
    });
    const pending = new Map<string, ReturnType<typeof setTimeout>>();
    const fire = (path: string, kind: 'add' | 'change' | 'unlink') => {
      if (!path.endsWith('.jsonl') || basename(path).startsWith('agent-')) return;
      clearTimeout(pending.get(path));
      pending.set(
        path,
        setTimeout(() => {
          pending.delete(path);
          const before = this.cache.get(path)?.size;
          if (kind === 'unlink') {
            this.cache.delete(path);
            onChange({ path, reason: 'removed', row: null });
            return;
          }
          const row = this.update(path);
          if (!row) onChange({ path, reason: 'removed', row: null });
          else onChange({ path, reason: before === undefined ? 'added' : row.bytes > before ? 'appended' : 'changed', row });
        }, 60),
      );
    };
    watcher.on('add', (p) => fire(p, 'add'));
    watcher.on('change', (p) => fire(p, 'change'));
    watcher.on('unlink', (p) => fire(p, 'unlink'));
    this.stopWatch = () => {
      for (const t of pending.values()) clearTimeout(t);
      void watcher.close();
      this.stopWatch = null;
    };
    return this.stopWatch;
  }

  close(): void {
    this.stopWatch?.();
  }

  private withLive(c: Cached): SessionRow {
    const last = c.row.lastActivity ? Date.parse(c.row.lastActivity) : c.mtimeMs;
    c.row.live = this.now() - last < LIVE_MS;
    return c.row;
  }

  private summarise(path: string, size: number, mtimeMs: number): { row: SessionRow; notSession: boolean } {
    const projectDir = basename(path.slice(0, path.length - basename(path).length - 1));
    const base: SessionRow = {
      id: basename(path).replace(/\.jsonl$/i, ''),
      path,
      projectDir,
      project: projectDir,
      cwd: null,
      title: null,
      lastActivity: new Date(mtimeMs).toISOString(),
      bytes: size,
      contextTokens: null,
      estimatedTokens: 0,
      reclaimableTokens: 0,
      reclaimableShare: 0,
      live: false,
      fork: false,
      forkOf: null,
      forks: [],
      subagents: 0,
      problem: null,
    };
    try {
      const loaded = loadSessionWithSubagents(path);
      const s = loaded.session;
      base.id = s.id || base.id;
      base.cwd = s.cwd;
      base.project = s.cwd ? basename(s.cwd) || s.cwd : projectDir;
      base.title = s.title ?? s.firstPrompt?.split('\n')[0]?.slice(0, 140) ?? null;
      base.lastActivity = s.lastTimestamp ?? base.lastActivity;
      base.subagents = loaded.subagents.length;
      if (isFatal(s.problems)) {
        base.problem = s.problems.find((p) => p.severity === 'error')?.message ?? 'unreadable';
        return { row: base, notSession: s.problems.some((p) => p.code === 'not_a_transcript' || p.code === 'file_empty') };
      }
      const damaged = s.problems.filter((p) => p.code === 'torn_last_line' || p.code === 'invalid_json' || p.code === 'invalid_record');
      if (damaged.length > 0) base.warning = `${damaged.length} invalid line(s), first at line ${damaged[0]?.line ?? '?'}: the file may be cut off or damaged`;
      const snap = this.engine.analyze(loaded, { repoRoot: this.repoRootFor(s.cwd), withSpent: false });
      const figures = windowFigures(snap);
      base.contextTokens = snap.context.reportedTokens;
      base.estimatedTokens = snap.context.estimatedTokens;
      base.reclaimableTokens = figures.reclaimableTokens;
      base.reclaimableShare = figures.deadShare;
    } catch (error) {
      base.problem = `could not be summarised: ${(error as Error).message}`;
    }
    return { row: base, notSession: false };
  }
}
