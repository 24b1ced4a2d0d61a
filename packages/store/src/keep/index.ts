/**
 * @glassbox/store/keep — sessions kept in Glassbox's archive, beyond their client's clean-up
 * (docs/archive.md): keep (chunked, deduplicated, compressed, incremental), restore, the read-only view
 * of kept sessions whose originals are gone, what the archive holds, prune and verify.
 */
export { keepSession, type KeepOptions, type KeepResult } from './keep';
export { restoreSession, type RestoreOptions, type RestoreResult } from './restore';
export { moveIntoArchive, type MoveResult } from './move';
export { findKept } from './find';
export { KeepError } from './errors';
export { KeptArchive, type KeptSession, type GoneNote, type RemovedNote } from './kept-archive';
export type { KeptManifest, KeptFile, KeptPart } from './manifest';
export { archiveReport, type ArchiveReport, type ArchivedSession } from './report';
export { planPrune, applyPrune, parseAge, type PrunePlan, type PruneResult } from './prune';
export { verifyArchive, type VerifyArchiveResult } from './verify';
export { syncView, ensureViewCopy, isInKeptView, viewDirOf, viewRootOf, viewPathOf, type ViewSync } from './view';
export { CHUNK_SIZES, chunkLengths, type ChunkSizes } from './chunker';
export { autoKeepPlan, AUTO_KEEP_IDLE_MS, type AutoKeepRow, type AutoKeepOptions } from './auto-keep';
export type { KeptMark, RetentionMark } from './marks';
