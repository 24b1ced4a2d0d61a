export { scanLines, readSessionFile, ioProblem, type ScanResult, type LineSink, type ReadSessionResult } from './read-file';
export {
  projectRoots,
  discoverFiles,
  describeOpenedFile,
  findSessionById,
  listSubagentFiles,
  listToolResultFiles,
  type SubagentFile,
} from './discover';
export { loadSessionWithSubagents } from './load';
export { claudeCodeLocator } from './locator';
