import { homedir } from 'node:os';
import type { AgentLocator } from '@glassbox/core';
import { claudeCodeFormat } from '../agent';
import { describeOpenedFile, discoverFiles, projectRoots, subagentCandidates } from './discover';
import { followSession } from './follow';
import { loadSessionWithSubagents } from './load';
import { readSessionFile } from './read-file';
import { claudeCodeRetention } from './retention';

/** Claude Code's Node side: its projects folders, its files, and reading them. */
export const claudeCodeLocator: AgentLocator = {
  format: claudeCodeFormat,
  roots: (env, home) => projectRoots(env, home || homedir()),
  discover: discoverFiles,
  describe: describeOpenedFile,
  load: (path, options) => loadSessionWithSubagents(path, options),
  follow: (path, options) => followSession(path, options),
  sharesRecords: true,
  parseFile: (path, options) => readSessionFile(path, { progress: options?.progress, onBytes: options?.onBytes }).session,
  companionFiles: subagentCandidates,
  retention: claudeCodeRetention(),
};
