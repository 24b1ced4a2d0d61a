import type { AgentRegistry, DiscoveredFile } from '@glassbox/core';
import { agentForFile } from '@glassbox/file-io';

export type { DiscoveredFile };

/** Each agent's roots: where the index looks for that agent's transcripts. */
export type AgentRoots = ReadonlyMap<string, readonly string[]>;

/** Every transcript under every agent's roots, each found by its own agent's locator. */
export function discoverFiles(agents: AgentRegistry, roots: AgentRoots): DiscoveredFile[] {
  const out: DiscoveredFile[] = [];
  for (const agent of agents.agents) {
    const mine = roots.get(agent.format.id) ?? [];
    if (mine.length > 0) out.push(...agent.locator.discover(mine));
  }
  return out;
}

/** A file opened from anywhere: its agent by content, then what that agent says it is. */
export function describeOpenedFile(agents: AgentRegistry, path: string): Omit<DiscoveredFile, 'root'> {
  return agentForFile(agents, path).locator.describe(path);
}
