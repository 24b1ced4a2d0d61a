// Test support: a temporary CLAUDE_CONFIG_DIR seeded from the corpus copied into the repository, and
// the value of a channel's result.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths';

export { REPO_ROOT };

export const GENERATED = join(REPO_ROOT, 'fixtures/corpus/generated');

/** The value of a channel's result; the test fails with the error when the result is not ok. */
export async function okValue<T>(p: Promise<{ ok: boolean; value?: unknown; error?: unknown }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
}

export interface Seeded {
  dir: string;
  configDir: string;
  projectsDir: string;
  dataDir: string;
  /** An empty CODEX_HOME, so tests never index the machine's own Codex sessions. */
  codexHome: string;
  /** The environment a host of this seed runs with (config, Codex home and data folder). */
  env: Record<string, string>;
  /** Scenario name → its session file in the seeded projects folder. */
  sessions: Record<string, string>;
  /** Recorded cwd → the scenario's project-after folder. */
  repoMap: Record<string, string>;
  cleanup(): void;
}

export function seedConfigDir(scenarios: string[]): Seeded {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-desktop-'));
  const configDir = join(dir, 'claude');
  const projectsDir = join(configDir, 'projects');
  const sessions: Record<string, string> = {};
  const repoMap: Record<string, string> = {};
  for (const name of scenarios) {
    const manifest = JSON.parse(readFileSync(join(GENERATED, name, 'manifest.json'), 'utf8')) as {
      project_slug: string;
      session_ids: string[];
      cwd: string;
    };
    const target = join(projectsDir, manifest.project_slug);
    cpSync(join(GENERATED, name, 'claude-project'), target, { recursive: true });
    sessions[name] = join(target, `${manifest.session_ids[0]}.jsonl`);
    repoMap[manifest.cwd] = join(GENERATED, name, 'project-after');
  }
  const codexHome = join(dir, 'codex');
  const dataDir = join(dir, 'data');
  const env = { CLAUDE_CONFIG_DIR: configDir, CODEX_HOME: codexHome, GLASSBOX_DATA_DIR: dataDir };
  return { dir, configDir, projectsDir, dataDir, codexHome, env, sessions, repoMap, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
