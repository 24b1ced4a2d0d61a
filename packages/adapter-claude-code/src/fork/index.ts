export { buildFork, createForkBuilder } from './apply';
export { validateFork, createForkValidator, type ValidationReport, type CheckResult, type CheckFailure, type CheckId, type ValidateOptions } from './validate';
export { liveChain, parseLines, type LiveChain } from './chain';
export { WRITE_TOOL_FIELDS } from './payloads';
export type { ForkAction, ForkResult, AppliedAction, RefusedAction, RefusalCode, RemovedPayload } from './types';
