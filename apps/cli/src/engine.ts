import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { Glassbox } from '@glassbox/engine';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { AGENTS } from './agents';
import type { CliIO } from './io';

/** The application layer for one command: this run's environment, and `--archive` when the command was given one. */
export function glassboxFor(io: CliIO, options: { archive?: string | undefined } = {}): Glassbox {
  return new Glassbox({
    agents: AGENTS.registry,
    ports: nodeAnalysisPorts(),
    env: io.env,
    home: io.env['HOME'] ?? homedir(),
    ...(options.archive ? { archiveDir: resolve(options.archive) } : {}),
  });
}
