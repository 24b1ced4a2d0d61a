import { buildForkFromLines, validateFromLines, type ForkAction, type ForkBuilder, type ForkResult, type ForkValidator, type ValidateOptions, type ValidationReport } from '@glassbox/core';
import { GeminiForkBuilder } from './builder';
import { GeminiForkValidator } from './validator';

export function createForkBuilder(actions: readonly ForkAction[], newSessionId: string): ForkBuilder {
  return new GeminiForkBuilder(actions, newSessionId);
}

export function createForkValidator(options: ValidateOptions = {}): ForkValidator {
  return new GeminiForkValidator(options);
}

/** In memory (small files and tests): lines in, lines out. */
export function buildFork(lines: readonly string[], actions: readonly ForkAction[], newSessionId: string): ForkResult {
  return buildForkFromLines(createForkBuilder(actions, newSessionId), lines);
}

export function validateFork(original: readonly string[], fork: readonly string[], options: ValidateOptions = {}): ValidationReport {
  return validateFromLines(createForkValidator(options), original, fork);
}
