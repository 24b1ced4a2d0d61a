// The CLI's agents, made once by the composition root.
import type { Agent } from '@glassbox/core';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';

const registry = defaultAgents();

export const AGENTS = {
  registry,
  /** The agent whose transcript this file is (by its content). */
  forFile: (path: string): Agent => agentForFile(registry, path),
};
