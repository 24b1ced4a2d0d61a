import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { whenRootAppears, type Appearance } from './root-appearance';
import type { SessionChange, SessionIndex } from './session-index';

export interface WatchOptions {
  /** Quiet time after the last event on a file before it is re-indexed; a burst of appends becomes one pass. */
  debounceMs?: number;
  /** Run the full analysis after each change (reclaimable by class). Default true. */
  analyze?: boolean;
  onError?: (error: Error) => void;
}

export interface RootWatcher {
  /** Resolves once the initial scan of every root is done (events before it are not reported). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Chokidar's throttle of change events on one file (its `_emit`: a change within it is dropped). */
const CHOKIDAR_THROTTLE_MS = 50;
/** How long after a root appears it is read once more (chokidar's walk of a new folder takes milliseconds). */
const ROOT_SETTLE_MS = 1000;
/** When a folder made while watching is listed again (see folderAppeared). */
const FOLDER_RELIST_MS = [250, 1000];
/** How deep and how much of a new folder is listed again (a project folder, its session folders, their subagents). */
const FOLDER_RELIST_DEPTH = 3;
const FOLDER_RELIST_ENTRIES = 10_000;

/**
 * Watches every root of the index with chokidar and keeps the index current: new sessions, appends,
 * atomic-rename writes (seen as an add or change of the final name), and deletions. Events on a file
 * are debounced and coalesced into one incremental refresh of the changed paths; a last line still
 * being written is never read (the summary stops at the last newline and resumes there). Each
 * resulting index change is passed to onChange, so a window can update one row.
 */
export function watchRoots(index: SessionIndex, onChange: (change: SessionChange) => void, options: WatchOptions = {}): RootWatcher {
  const debounceMs = options.debounceMs ?? 150;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const recheck = new Set<string>();
  let recheckTimer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let closed = false;

  // Which names are transcripts is each agent's rule (Claude Code and Codex: `.jsonl`; Gemini CLI: `session-*.json[l]`).
  const isTranscript = (path: string) => index.agents.isSessionFileName(basename(path));
  const listener = (change: SessionChange) => onChange(change);
  index.on('change', listener);

  /** One refresh after the ones before it (of these paths, or of every root): they never overlap. */
  const queueRefresh = (paths?: string[]) => {
    running = running.then(() => index.refresh({ ...(paths ? { paths } : {}), analyze: options.analyze ?? true })).catch((error: Error) => options.onError?.(error));
  };
  const flush = () => {
    timer = null;
    if (closed || pending.size === 0) return;
    const paths = [...pending];
    pending.clear();
    // Chokidar drops a file's change that comes within its 50 ms throttle of the one before (a client
    // writing two records 30 ms apart): the files just read are looked at once more after that window,
    // so the last append of a burst is never left unread until the next one. A file that did not change
    // since costs a stat.
    if (recheckTimer) clearTimeout(recheckTimer);
    for (const p of paths) recheck.add(p);
    recheckTimer = setTimeout(() => {
      recheckTimer = null;
      if (closed) return;
      const again = [...recheck];
      recheck.clear();
      queueRefresh(again);
    }, CHOKIDAR_THROTTLE_MS + debounceMs);
    queueRefresh(paths);
  };
  // A root made after the start: watched from now on, and read now for what was written in it before
  // (a full refresh costs a stat per known file); read once more a little later for what was written
  // while chokidar walked it, which it counts as already there and does not report.
  const rootAppeared = (root: string) => {
    if (closed) return;
    watcher.add(root);
    const readAll = () => {
      if (!closed) queueRefresh();
    };
    readAll();
    appearanceTimers.push(setTimeout(readAll, ROOT_SETTLE_MS));
  };
  const touch = (path: string) => {
    if (!isTranscript(path) || closed) return;
    pending.add(path);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  // Chokidar lists a folder made while it watches before it watches that folder, so a file written in
  // between is never reported (a new project's first session, written as its folder is made; a new
  // day's Codex rollout). The folder is listed again once chokidar watches it, and each transcript in
  // it is read; one already read costs a stat.
  const folderAppeared = (dir: string) => {
    if (closed) return;
    for (const ms of FOLDER_RELIST_MS) {
      const t = setTimeout(() => {
        folderTimers.delete(t);
        if (!closed) for (const path of transcriptsUnder(dir, FOLDER_RELIST_DEPTH, FOLDER_RELIST_ENTRIES)) touch(path);
      }, ms);
      folderTimers.add(t);
    }
  };

  // Chokidar may say it is ready before it watches every root when some do not exist (an agent with
  // no session yet: no ~/.codex/sessions): the roots that exist are watched first, the others added
  // once it is ready. Chokidar then sees a missing root appear when its parent exists (~/.codex); a
  // root whose parent is missing too (the agent installed after Glassbox started) is waited for by
  // whenRootAppears, then watched and read.
  const existing = index.roots.filter(isDirectory);
  const missing = index.roots.filter((r) => !existing.includes(r));
  const appearances: Appearance[] = [];
  const appearanceTimers: NodeJS.Timeout[] = [];
  const folderTimers = new Set<NodeJS.Timeout>();
  const watcher: FSWatcher = watch(existing.length > 0 ? existing : missing, {
    ignoreInitial: true,
    persistent: true,
    // Only transcripts matter; tool-results/, memory/ and the like are skipped (folders are still walked).
    ignored: (path, stats) => stats?.isFile() === true && !isTranscript(path),
  });
  watcher.on('add', touch).on('change', touch).on('unlink', touch).on('addDir', folderAppeared);
  watcher.on('error', (error) => options.onError?.(error as Error));
  const ready = new Promise<void>((resolve) =>
    watcher.once('ready', () => {
      // What was written while chokidar walked the roots counts as there from the start and is never
      // reported, and the index's own first pass may have listed the roots before it was written (a
      // session started as Glassbox starts): read every root once more now (a stat per known file).
      if (!closed) queueRefresh();
      const near = missing.filter((r) => isDirectory(dirname(r)));
      if (existing.length > 0 && near.length > 0 && !closed) watcher.add(near);
      for (const root of missing.filter((r) => !near.includes(r))) appearances.push(whenRootAppears(root, () => rootAppeared(root)));
      resolve();
    }),
  );

  return {
    ready,
    async close() {
      closed = true;
      for (const a of appearances) a.close();
      for (const t of appearanceTimers) clearTimeout(t);
      for (const t of folderTimers) clearTimeout(t);
      if (timer) clearTimeout(timer);
      if (recheckTimer) clearTimeout(recheckTimer);
      index.off('change', listener);
      await watcher.close();
      await running;
    },
  };
}

/** The files under a folder, `depth` levels down, at most `limit` entries looked at (touch keeps the transcripts). */
function transcriptsUnder(dir: string, depth: number, limit: number): string[] {
  const files: string[] = [];
  let seen = 0;
  const walk = (d: string, left: number): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > limit) return;
      const path = join(d, e.name);
      if (e.isFile()) files.push(path);
      else if (e.isDirectory() && left > 0) walk(path, left - 1);
    }
  };
  walk(dir, depth - 1);
  return files;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
