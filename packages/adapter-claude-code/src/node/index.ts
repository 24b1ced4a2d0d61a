export { scanLines, readSessionFile, ioProblem, type ScanResult, type LineSink, type ReadSessionResult } from './read-file';
export {
  projectRoots,
  listSessionFiles,
  findSessionById,
  listSubagentFiles,
  listToolResultFiles,
  type SessionFileRef,
  type SubagentFile,
} from './discover';
export { loadSessionWithSubagents, type LoadedSession } from './load';
