export { compactionHistory, type TranscriptPort, type HistoryOptions } from './history';
export { xrayCompaction, type XrayInput } from './xray';
export { keysOf, errorLines, identifiers, collapse, type KeyDraft, type KeySource } from './keys';
export { SummaryText, carriedBy } from './judge';
