/**
 * @glassbox/engine — the one application layer (ARCHITECTURE.md): the use cases every shell calls,
 * and the types their answers are made of. The shells never reach the store's fork or keep code
 * themselves (a lint rule).
 */
export { Glassbox } from './glassbox';
export type { EngineSetup, Setup } from './setup';
export { Refusal, refusalOf } from './failures';
export type { ForkRequest, ForkOutcome, RemovedFork, WrittenFork } from './forks';
export { mcpWiring, elideOptions } from './forks';
export type { ElisionSample, ElisionSamples } from './elision-samples';
export type { AnalyzeRequest, Inspection, Lineage, Opened } from './sessions';
export type { RetentionFacts } from './keeping';
export { EXPORT_FORMATS, type ConversationInput, type Exported, type ExportFormat } from './conversations';
export { segmentContent, type RecordLines } from './conversation/segment-content';
export type { CompactionMark, Transcript, TranscriptItem } from './conversation/transcript';
export { forkJob, forkWillSend, NO_JOB, type ForkJob, type FilePlan, type ForkPreview, type ForkLineage, type LineageEntry, type ResumeInstruction, type ShownSegment, type UndoResult, type VerifyResult, SessionRecall, RecallError, RECALL_DEFAULT_LINES, RECALL_MAX_LINES, type RecallEntry, type RecalledText } from '@glassbox/store/fork';
export { parseAge, type ArchiveReport, type AutoKeepRow, type KeepResult, type KeptSession, type PrunePlan, type PruneResult, type RestoreResult, type VerifyArchiveResult } from '@glassbox/store/keep';
export { usageReport, indexUsageSource, USAGE_GROUPINGS, type UsageGrouping, type UsageQuery, type UsageReport, type UsageRow, type UsageFigures, type UsageSource, type UsageSession } from './usage-reports';
