import { homedir } from 'node:os';
import type { AgentRegistry } from '@glassbox/core';
import { Glassbox } from '@glassbox/engine';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';

/** The application layer as a host (and each of its work threads) makes it: these agents, this machine's disk, the host's data folder. */
export function hostGlassbox(agents: AgentRegistry, dataDir: string, env: NodeJS.ProcessEnv = process.env): Glassbox {
  return new Glassbox({ agents, ports: nodeAnalysisPorts(), env, home: env['HOME'] ?? homedir(), dataDir });
}
