/**
 * @glassbox/store — the session index: every Claude Code session on the machine, indexed once in
 * SQLite and kept current as files grow. The whole API in one page:
 *
 *   const index = openIndex({ dataDir });            // or { dbPath }, { roots }, { workers: 0 }
 *   index.notices                                    // e.g. "The index was damaged …: moved it to … and rebuilt it"
 *   await index.refresh({ onProgress })              // discover every root, index what changed → RefreshReport
 *   index.list({ search, project, since, sort, limit })  // SessionRow[] (sessions; subagent cost merged in)
 *   index.get(sessionIdOrPath)                       // SessionRow[]: the session file, then its subagents
 *   await index.indexFile(path)                      // a transcript from anywhere (dropped, named on the CLI)
 *   index.on('change', (c: SessionChange) => …)      // one row added / updated / removed, with the new row
 *   for await (const c of index.changes({ signal }))  // the same, as an async iterator
 *   const w = watchRoots(index, onChange); await w.ready; … await w.close();
 *   await index.close();
 *
 * Rows fill in as stages complete (SessionRow.stage): 'listed' (first and last records read: title,
 * project, last activity, context size — ready before any full pass), 'summarised' (every line:
 * turns, usage, cost, search), 'analysed' (reclaimable tokens by class, from the full analysis run
 * in worker threads). Figures are exact numbers; format them at display time.
 *
 * Incremental: a file whose fingerprint (device, inode, size, mtime) is unchanged is not opened. An
 * appended file is summarised from its saved byte offset with its saved checkpoint (summary.ts); a
 * file whose inode changed, that shrank, or whose bytes before the offset changed is read again from
 * the start; a deleted file's row is removed. The database (WAL, numbered migrations with checksums)
 * is a cache: a damaged one, or one from a newer schema, is moved aside and rebuilt. Several
 * processes may index one database at once (immediate transactions, upserts, a busy timeout); a lock
 * held past the wait, a full disk or a path that cannot be a database throws IndexUnavailable and
 * changes nothing.
 *
 * Workers: summaries and analyses run in worker threads started from an esbuild bundle of
 * worker/entry.ts made at first use (no TypeScript loader in the workers). A bundled host (the
 * desktop app) passes `workerUrl` (its own built worker entry) or `workers: 0`; if workers cannot
 * start, the index carries on in the calling thread and says so in the refresh's notices.
 */
import { SessionIndex, type OpenIndexOptions } from './session-index';

export function openIndex(options: OpenIndexOptions): SessionIndex {
  return new SessionIndex(options);
}

export {
  SessionIndex,
  type OpenIndexOptions,
  type RefreshOptions,
  type RefreshReport,
  type Progress,
  type Phase,
  type SessionChange,
  type ChangeReason,
} from './session-index';
export type { UsageHour } from './index-types';
export { watchRoots, type WatchOptions, type RootWatcher } from './watch';
export type { SessionRow, BriefRow } from './rows';
export { SORT_KEYS, ftsQuery, type ListQuery, type SortKey } from './list-query';
export { defaultDataDir, defaultDbPath } from '../shared/paths';
export { discoverFiles, describeOpenedFile, type DiscoveredFile, type AgentRoots } from './discover';
export { IndexUnavailable, type UnavailableKind } from './db-errors';
export { notRegularFile, fileKind } from '../shared/scan';
export { planRefresh, type FileAction, type RefreshPlan } from './refresh-plan';
export { messagePricer } from './cost';
export { nodeAnalysisPorts, nodeRepoPort } from '../shared/repo-port';
export { checkMappingFolder, readSavedMappings, type FolderCheck } from './repo-map';
export { bundleWorker, bundleWorkerAsync } from './worker-source';
export { ThreadPool, ThreadCancelledError, ThreadStoppedError, serveThread, type ThreadData, type RunOptions, type WorkContext } from '../shared/threads';
export { readSettings, writeSettings, type GlassboxSettings } from '../shared/settings';
export { onPrivacyNotice } from '../shared/private-folder';
export { compactionHistories, compactionItemText, fileLineSource, memoryLineSource, type LineSource } from '../shared/compaction-port';
