export { compactionHistory, type TranscriptPort, type HistoryOptions } from './history';
export { searchCompactions } from './find';
