export { Archive, archiveDir, sha256Hex } from './archive';
export { ForkError, writeNewFileAtomic } from './atomic';
export type { ForkManifest, ManifestAction } from './manifest';
export { writeFork, type WriteForkOptions, type WriteForkResult, type PlanAction } from './writer';
export { verifyFork, showSegment, undoFork, loadManifest, forkIdOf, type VerifyResult, type ShownSegment, type UndoResult, type ArchiveOptions } from './ops';
export { readSource, type SourceSnapshot } from './source';
export { sessionFolderOf } from './sidecars';
export { planFromLines, type PlanLinesOptions, type LinesPlan } from './plan-lines';
export { previewFork, PREVIEW_SESSION_ID, type ForkPreview } from './preview';
