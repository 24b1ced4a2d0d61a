export { buildCodexFork, CodexForkBuilder, type CodexForkAction, type CodexForkResult, type CodexAppliedAction, type CodexRefusedAction, type CodexRefusalCode } from './apply';
export { validateCodexFork, CodexForkValidator, type CodexValidationReport, type CodexCheckResult, type CodexCheckId } from './validate';
export { buildFork, validateFork, createForkBuilder, createForkValidator } from './seam';
export { uuidV7, renameIdValues } from './ids';
export { resumeCommand } from './names';
