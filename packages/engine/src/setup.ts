import { join } from 'node:path';
import type { Agent, AgentRegistry } from '@glassbox/core';
import type { AnalysisPorts } from '@glassbox/analysis';
import { defaultDataDir } from '@glassbox/store';
import { archiveDir } from '@glassbox/store/fork';

/**
 * What the application layer is handed by the shell that makes it (the CLI, the host, a work thread):
 * the agents (from the composition root), the disk as the proofs see it, and the environment. Nothing
 * in this package, nor below it, builds an agent registry of its own.
 */
export interface EngineSetup {
  agents: AgentRegistry;
  /** The working directory's files as the proofs read them (the store's Node ports, or none for a dropped file). */
  ports: AnalysisPorts;
  env: NodeJS.ProcessEnv;
  home: string;
  /** Glassbox's own folder (index, archive); default: GLASSBOX_DATA_DIR, XDG, ~/.local/share/glassbox. */
  dataDir?: string;
  /** The archive of originals, removed payloads and kept sessions; default: `<dataDir>/archive` (or GLASSBOX_DATA_DIR's). */
  archiveDir?: string;
}

/** The setup with its folders decided once. */
export interface Setup extends EngineSetup {
  dataDir: string;
  archiveDir: string;
  agentFor(path: string): Agent;
}

export function resolveSetup(given: EngineSetup, agentFor: (path: string) => Agent): Setup {
  const dataDir = given.dataDir ?? defaultDataDir(given.env, given.home);
  const archive = given.archiveDir ?? (given.dataDir ? join(given.dataDir, 'archive') : archiveDir(given.env, undefined, given.home));
  return { ...given, dataDir, archiveDir: archive, agentFor };
}
