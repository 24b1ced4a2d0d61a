import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Agent, AgentRegistry, SessionNaming } from '@glassbox/core';
import { ForkError, describe } from '../shared/atomic';

/**
 * Where a session Glassbox writes (a fork, an undo's restored original) goes and how it is named: as
 * its agent's client names its own sessions, so that the client's resume finds it by id (the agent's
 * `naming`, e.g. Codex's `rollout-<time>-<id>.jsonl` in the date folder of the time of writing), or,
 * for an agent without one (Claude Code), `<id>.jsonl` beside the source with a random v4 id.
 */
const BESIDE_THE_SOURCE: SessionNaming = {
  newSessionId: () => randomUUID(),
  pathFor: (sourcePath, sessionId) => join(dirname(sourcePath), `${sessionId}.jsonl`),
  allows: (sourcePath, path, sessionId) => dirname(path) === dirname(sourcePath) && basename(path) === `${sessionId}.jsonl`,
};

export function namingOf(agent: Agent): SessionNaming {
  return agent.locator.naming ?? BESIDE_THE_SOURCE;
}

const TRAILING_UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** The session id a session file's name carries: the uuid it ends with (`<id>.jsonl`, `rollout-<time>-<id>.jsonl`), else its name without `.jsonl`. */
export function sessionIdOfName(name: string): string {
  const base = basename(name);
  return TRAILING_UUID.exec(base)?.[1] ?? base.replace(/\.jsonl$/i, '');
}

/**
 * Whether a manifest's fork path is one Glassbox writes for that original: beside it as `<id>.jsonl`,
 * or where an agent's naming puts it. Any other place means the manifest was edited.
 */
export function placementAllowed(agents: AgentRegistry, originalPath: string, forkPath: string, forkId: string): boolean {
  if (BESIDE_THE_SOURCE.allows(originalPath, forkPath, forkId)) return true;
  return agents.agents.some((a) => a.locator.naming?.allows(originalPath, forkPath, forkId) === true);
}

/**
 * Creates a folder and the parents it lacks (a date folder of today), returning the ones it made,
 * deepest last, so that a write that leaves nothing in them can remove them again.
 */
export function makeFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  const made: string[] = [];
  for (const d of missing) {
    try {
      mkdirSync(d);
      made.push(d);
    } catch (error) {
      // Another process made it meanwhile: it is not ours to remove.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      removeEmptyFolders(made);
      throw new ForkError('unwritable', `cannot create ${d} (${describe(error)}); nothing was written`);
    }
  }
  return made;
}

/** Removes folders this process made, deepest first, where nothing else landed in them. */
export function removeEmptyFolders(made: readonly string[]): void {
  for (const d of [...made].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      // Not empty (or gone): something else is in it now.
    }
  }
}
