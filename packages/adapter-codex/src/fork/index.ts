export { buildCodexFork, type CodexForkAction, type CodexForkResult, type CodexAppliedAction, type CodexRefusedAction, type CodexRefusalCode } from './apply';
export { validateCodexFork, type CodexValidationReport, type CodexCheckResult, type CodexCheckId } from './validate';
export { buildFork, validateFork } from './seam';
export { newSessionId, uuidV7, renameIdValues } from './ids';
export { forkFileName, resumeCommand } from './names';
