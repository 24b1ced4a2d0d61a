export { RolloutParser, type CodexSession, type ParserOptions } from './parser';
export { recogniseFirstRecord, normaliseRecord, type Generation, type Recognition, type RolloutRecord } from './generation';
export { matchPureRead, readFromOutput, type ReadSpec } from './read-grammar';
export { parseShellOutput, type ShellOutput } from './shell-output';
export { parsePatch, type PatchFile } from './patch';
export { shapeOfCall, type CallShape } from './tool-ops';
export { parseTokenCount, neutralUsage, type CodexRequestUsage } from './usage';
export { sessionIdFromFileName, isRolloutFileName } from './discover-names';
