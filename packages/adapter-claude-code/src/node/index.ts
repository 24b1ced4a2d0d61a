export { scanLines, readSessionFile, ioProblem, type ReadSessionResult } from './read-file';
export type { ScanResult, LineSink } from '@glassbox/file-io';
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
export { claudeCodeRetention, configFolderOf, managedSettingsDir } from './retention';
