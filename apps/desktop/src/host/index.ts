import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoots } from '@glassbox/adapter-claude-code/node';
import { defaultEngine } from './engine-default';
import { EngineHost, type HostOptions } from './host';

export { EngineHost, type HostOptions } from './host';
export { startUiServer, CSP, type UiServer, type UiServerOptions } from './http-server';
export { defaultEngine } from './engine-default';
export type { Engine } from './engine';

const here = dirname(fileURLToPath(import.meta.url));
/** apps/desktop */
export const DESKTOP_DIR = resolve(here, '../..');
/** The built renderer for browser mode (`npm run build:web -w @glassbox/desktop`). */
export const WEB_DIR = join(DESKTOP_DIR, 'out', 'web');
/** The bundled sample sessions: the generated corpus in a checkout. */
export const DEFAULT_SAMPLES_DIR = resolve(DESKTOP_DIR, '../../fixtures/corpus/generated');

export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  if (env['GLASSBOX_DATA_DIR']) return env['GLASSBOX_DATA_DIR'];
  const home = env['HOME'] ?? env['USERPROFILE'] ?? '.';
  return join(env['XDG_DATA_HOME'] ?? join(home, '.local', 'share'), 'glassbox');
}

/** A host with the machine's defaults: roots from CLAUDE_CONFIG_DIR, data from GLASSBOX_DATA_DIR. */
export function createHost(env: NodeJS.ProcessEnv, overrides: Partial<HostOptions> = {}): EngineHost {
  return new EngineHost({
    mode: 'browser',
    roots: projectRoots(env),
    dataDir: defaultDataDir(env),
    samplesDir: env['GLASSBOX_SAMPLES_DIR'] ?? DEFAULT_SAMPLES_DIR,
    engine: defaultEngine(),
    watch: true,
    ...overrides,
  });
}
