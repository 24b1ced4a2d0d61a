// The layering is enforced, not just written down: each snippet below breaks one rule of
// ARCHITECTURE.md, placed where it would do harm, and the project's own lint configuration must flag it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');

interface Violation {
  why: string;
  file: string;
  code: string;
}

const VIOLATIONS: Violation[] = [
  { why: 'core imports analysis', file: 'packages/core/src/bad.ts', code: "import { analyzeSession } from '@glassbox/analysis';" },
  { why: 'core names an adapter', file: 'packages/core/src/bad.ts', code: "import { claudeCodeFormat } from '@glassbox/adapter-claude-code';" },
  { why: 'an adapter imports the store', file: 'packages/adapter-claude-code/src/bad.ts', code: "import { openIndex } from '@glassbox/store';" },
  { why: 'an adapter imports analysis', file: 'packages/adapter-claude-code/src/bad.ts', code: "import { planEviction } from '@glassbox/analysis';" },
  { why: 'analysis reaches the store by a relative path', file: 'packages/analysis/src/bad.ts', code: "import { openDatabase } from '../../store/src/index/db';" },
  { why: 'analysis names an adapter', file: 'packages/analysis/src/bad.ts', code: "import { CLAUDE_PRICES } from '@glassbox/adapter-claude-code';" },
  { why: 'the renderer imports the host', file: 'packages/renderer/src/bad.ts', code: "import { EngineHost } from '../../host/src/host';" },
  { why: 'the renderer imports the store', file: 'packages/renderer/src/bad.ts', code: "import { openIndex } from '@glassbox/store';" },
  { why: 'the store imports the host', file: 'packages/store/src/index/bad.ts', code: "import { createHost } from '@glassbox/host';" },
  { why: 'the store names an adapter', file: 'packages/store/src/index/bad.ts', code: "import { claudeCodeLocator } from '@glassbox/adapter-claude-code/node';" },
  { why: "the store's fork planner names an adapter (it was once let off)", file: 'packages/store/src/fork/plan-lines.ts', code: "import { parseLines } from '@glassbox/adapter-claude-code';" },
  { why: 'the host names an adapter', file: 'packages/host/src/bad.ts', code: "import { claudeCodeFormat } from '@glassbox/adapter-claude-code';" },
  { why: 'the CLI names an adapter', file: 'apps/cli/src/bad.ts', code: "import { findSessionById } from '@glassbox/adapter-claude-code/node';" },
  { why: 'the contract imports the host', file: 'packages/contract/src/bad.ts', code: "import { EngineHost } from '@glassbox/host';" },
  { why: 'the composition root imports the store', file: 'packages/agents/src/bad.ts', code: "import { openIndex } from '@glassbox/store';" },
  { why: 'desktop main imports the renderer', file: 'apps/desktop/src/main/bad.ts', code: "import { App } from '../../../../packages/renderer/src/App';" },
  { why: 'one adapter imports another', file: 'packages/adapter-codex/src/bad.ts', code: "import { CLAUDE_PRICES } from '@glassbox/adapter-claude-code';" },
  { why: "one adapter's Node side imports another's", file: 'packages/adapter-codex/src/node/bad.ts', code: "import { readSessionFile } from '@glassbox/adapter-claude-code/node';" },
  { why: "an adapter's main entry uses node:os", file: 'packages/adapter-claude-code/src/bad.ts', code: "import { homedir } from 'node:os';" },
  { why: 'analysis reads a file', file: 'packages/analysis/src/bad.ts', code: "import { readFileSync } from 'node:fs';" },
  { why: 'core reads a file', file: 'packages/core/src/bad.ts', code: "import { readFileSync } from 'node:fs';" },
  { why: 'the renderer uses Node', file: 'packages/renderer/src/bad.ts', code: "import { join } from 'node:path';" },
  { why: 'the contract uses Node', file: 'packages/contract/src/bad.ts', code: "import { join } from 'node:path';" },
  { why: 'the renderer imports electron', file: 'packages/renderer/src/bad.ts', code: "import { ipcRenderer } from 'electron';" },
  { why: "the CLI writes forks around the application layer", file: 'apps/cli/src/bad.ts', code: "import { writeFork } from '@glassbox/store/fork';" },
  { why: "the CLI keeps sessions around the application layer", file: 'apps/cli/src/commands/bad.ts', code: "import { keepSession } from '@glassbox/store/keep';" },
  { why: "the host writes forks around the application layer", file: 'packages/host/src/bad.ts', code: "import { writeFork } from '../../store/src/fork/writer';" },
  { why: "the host restores around the application layer", file: 'packages/host/src/channels/bad.ts', code: "import { restoreSession } from '@glassbox/store/keep';" },
  { why: 'the application layer builds the agent registry', file: 'packages/engine/src/bad.ts', code: "import { defaultAgents } from '@glassbox/agents';" },
  { why: 'the application layer imports the host', file: 'packages/engine/src/bad.ts', code: "import { createHost } from '@glassbox/host';" },
  { why: 'the store builds the agent registry', file: 'packages/store/src/index/session-index.ts', code: "import { defaultAgents } from '@glassbox/agents';" },
  { why: "the store's fork writer builds the agent registry", file: 'packages/store/src/fork/writer.ts', code: "import { defaultAgents } from '@glassbox/agents';" },
  { why: 'the fork writer reaches into the keeping code', file: 'packages/store/src/fork/writer.ts', code: "import { syncView } from '../keep/view';" },
  { why: 'what the store shares reaches into the index', file: 'packages/store/src/shared/quick.ts', code: "import { SessionIndex } from '../index/session-index';" },
  { why: 'the store imports the application layer', file: 'packages/store/src/index/bad.ts', code: "import { Glassbox } from '@glassbox/engine';" },
  { why: 'a request dialect imports analysis', file: 'packages/request-anthropic/src/bad.ts', code: "import { planEviction } from '@glassbox/analysis';" },
  { why: 'a request dialect names an adapter', file: 'packages/request-anthropic/src/bad.ts', code: "import { claudeCodeFormat } from '@glassbox/adapter-claude-code';" },
  { why: 'a request dialect reads a file', file: 'packages/request-anthropic/src/bad.ts', code: "import { readFileSync } from 'node:fs';" },
  { why: 'the proxy names an adapter', file: 'packages/proxy/src/bad.ts', code: "import { claudeCodeFormat } from '@glassbox/adapter-claude-code';" },
  { why: 'the proxy imports the host', file: 'packages/proxy/src/bad.ts', code: "import { EngineHost } from '@glassbox/host';" },
  { why: 'the host touches SQLite directly', file: 'packages/host/src/bad.ts', code: "import Database from 'better-sqlite3';" },
];

const eslint = new ESLint({ cwd: REPO });

async function errorsOf(v: Violation): Promise<string[]> {
  const [result] = await eslint.lintText(`${v.code}\nexport const used = 1;\n`, { filePath: join(REPO, v.file) });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the layers are enforced by lint', () => {
  it.each(VIOLATIONS)('flags: $why', async (v) => {
    const errors = await errorsOf(v);
    expect(errors.some((e) => e.startsWith('boundaries/dependencies') || e.startsWith('no-restricted-imports')), `${v.file}: ${v.code}`).toBe(true);
  });

  it('lets through what the layers allow', async () => {
    const allowed: Violation[] = [
      { why: 'analysis imports core', file: 'packages/analysis/src/ok.ts', code: "import { humanTokens } from '@glassbox/core';\nexport const a = humanTokens;" },
      { why: 'the host imports the composition root', file: 'packages/host/src/ok.ts', code: "import { defaultAgents } from '@glassbox/agents';\nexport const a = defaultAgents;" },
      { why: "the index's worker entry builds its thread's agents", file: 'packages/store/src/index/worker/entry.ts', code: "import { defaultAgents } from '@glassbox/agents';\nexport const a = defaultAgents;" },
      { why: 'the CLI calls the application layer', file: 'apps/cli/src/ok.ts', code: "import { Glassbox } from '@glassbox/engine';\nexport const a = Glassbox;" },
      { why: 'the application layer plans forks', file: 'packages/engine/src/ok.ts', code: "import { planFromFile } from '@glassbox/store/fork';\nexport const a = planFromFile;" },
      { why: 'the renderer imports the contract', file: 'packages/renderer/src/ok.ts', code: "import { INVOKE_CHANNELS } from '@glassbox/contract';\nexport const a = INVOKE_CHANNELS;" },
      { why: "an adapter's Node side imports its own main entry", file: 'packages/adapter-codex/src/node/ok.ts', code: "import { RolloutParser } from '../parser';\nexport const a = RolloutParser;" },
      { why: "an adapter's main entry hashes", file: 'packages/adapter-claude-code/src/ok.ts', code: "import { createHash } from 'node:crypto';\nexport const a = createHash;" },
      { why: 'the proxy imports the request dialect and analysis', file: 'packages/proxy/src/ok.ts', code: "import { readRequest } from '@glassbox/request-anthropic';\nimport { planEviction } from '@glassbox/analysis';\nexport const a = [readRequest, planEviction];" },
      { why: 'the CLI imports the proxy', file: 'apps/cli/src/ok.ts', code: "import { startProxy } from '@glassbox/proxy';\nexport const a = startProxy;" },
    ];
    for (const v of allowed) expect(await errorsOf(v), v.why).toEqual([]);
  });
});
