import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';
import { defaultAgents } from '@glassbox/agents';
import type { AgentRegistry } from '@glassbox/core';
import { defaultDataDir, onPrivacyNotice } from '@glassbox/store';
import { hostGlassbox } from './glassbox';
import { EngineHost, type HostOptions } from './host';
import { IndexCatalog } from './index-catalog';
import { UnavailableCatalog } from './unavailable-catalog';

export { EngineHost, type HostOptions } from './host';
export { startUiServer, CSP, type UiServer, type UiServerOptions } from './http-server';
export { hostGlassbox } from './glassbox';
export { IndexCatalog } from './index-catalog';

/** The bundled sample sessions: the generated corpus in a checkout (a packaged app passes its own). */
export const DEFAULT_SAMPLES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/corpus/generated');

export { defaultDataDir };

/** Work threads of a host made by createHost (a bigger file open and a fork can run side by side). */
const WORK_THREADS = 2;

/**
 * A host with the machine's defaults: every agent's roots (e.g. CLAUDE_CONFIG_DIR), data from GLASSBOX_DATA_DIR, the
 * session list from the store's SQLite index. If the index cannot open at all (a better-sqlite3 built
 * for another ABI), the list says why and stays empty; files still open by path or drop.
 */
export function createHost(
  env: NodeJS.ProcessEnv,
  overrides: Partial<HostOptions> = {},
  onNotice: (text: string) => void = () => {},
  index: { workers?: number; nativeBinding?: string; workerUrl?: URL } = {},
  agents: AgentRegistry = defaultAgents(),
): EngineHost {
  const roots = overrides.roots ?? agents.roots(env, env['HOME'] ?? homedir()).map((r) => r.root);
  const dataDir = overrides.dataDir ?? defaultDataDir(env);
  // A data folder or archive that let other users in is made private; the window hears it like the index's notices.
  onPrivacyNotice(onNotice);
  const glassbox = hostGlassbox(agents, dataDir, env);
  return new EngineHost({
    mode: 'browser',
    roots,
    dataDir,
    samplesDir: env['GLASSBOX_SAMPLES_DIR'] ?? DEFAULT_SAMPLES_DIR,
    glassbox,
    watch: true,
    // Parsing, analysis and forks in two threads of their own: requests are answered meanwhile.
    work: { threads: WORK_THREADS },
    agents,
    catalog: () => {
      try {
        const catalog = new IndexCatalog({ roots, dataDir, agents, glassbox, ...index, ...(overrides.repoMap ? { repoMap: overrides.repoMap } : {}) });
        for (const n of catalog.notices()) onNotice(n);
        return catalog;
      } catch (error) {
        const reason = `the session index could not open (${(error as Error).message})`;
        onNotice(`${reason}; sessions can still be opened by path or dropped on the window.`);
        return new UnavailableCatalog(roots, reason);
      }
    },
    ...overrides,
  });
}
