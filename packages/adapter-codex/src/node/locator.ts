import { homedir } from 'node:os';
import { basename } from 'node:path';
import type { AgentLocator, DiscoveredFile } from '@glassbox/core';
import { codexFormat } from '../agent';
import { sessionIdFromFileName } from '../discover-names';
import { CODEX } from '../identity';
import { codexHomes, rolloutsUnder, sessionRoots } from './discover';
import { codexNaming } from './naming';
import { projectOf } from './project';
import { readRolloutFile } from './read-file';
import { followRollout } from './follow';

/** What a rollout file is, from its path (and, for the project, its first record). */
function describe(path: string): Omit<DiscoveredFile, 'root'> {
  const name = basename(path);
  return {
    agent: CODEX,
    path,
    project: projectOf(path),
    kind: 'session',
    parentPath: null,
    agentId: null,
    sessionId: sessionIdFromFileName(name) ?? name.replace(/\.jsonl$/i, ''),
  };
}

/**
 * Codex CLI's Node side: the sessions folders of its homes (`CODEX_HOME`, one path or a comma list,
 * default `~/.codex`), its rollout files, and reading them. A rollout is one thread: Codex keeps no
 * subagent files beside it. A live rollout is followed: an append reads only the new lines.
 */
export const codexLocator: AgentLocator = {
  format: codexFormat,
  roots: (env, home) => sessionRoots(codexHomes(env, home || homedir())),
  discover: (roots) => rolloutsUnder(roots).map(({ path, root }) => ({ ...describe(path), root })),
  describe,
  load: (path) => ({ session: readRolloutFile(path), subagents: [] }),
  parseFile: (path) => readRolloutFile(path),
  follow: followRollout,
  naming: codexNaming,
};
