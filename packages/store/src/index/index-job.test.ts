// A session read from its start for the index is summarised and analysed from ONE read (index-job.ts);
// what it gives must be what the two passes give on their own, on every real transcript of the corpus,
// and a full refresh must store the same rows either way.
import { appendFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { runIndex } from './index-job';
import { runSummarize } from './jobs';
import { analysisOf, runAnalyze } from './analyze-job';
import { openIndex } from './index';
import { SCENARIOS, copyCodexHome, copyPublic, copyScenario, tempTree } from '@glassbox/test-support/store/corpus';

const agents = defaultAgents();
const tree = tempTree();
const root = tree.root('claude');
for (const s of SCENARIOS) copyScenario(root, s);
copyPublic(root, 'd-kimuson__claude-code-viewer');
const codexHome = join(tree.dir, 'codex-home');
const rollouts = copyCodexHome(codexHome);
afterAll(() => tree.cleanup());

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}
const sessions = walk(root).filter((p) => p.endsWith('.jsonl') && !p.includes('/subagents/'));

const separately = (agent: string, path: string, repoRoot: string | null = null) => ({
  summary: runSummarize({ type: 'summarize', agent, path, subagentFile: false, fromOffset: 0, fromLine: 0, state: null }, agents.byId(agent).format),
  analysis: runAnalyze({ type: 'analyze', agent, path, repoRoot }, agents.byId(agent).locator),
});

describe('an index job (summary and analysis from one read)', () => {
  it.each(sessions.map((p) => [p.slice(root.length), p]))('%s: the summary and the analysis the two passes give', (_name, path) => {
    expect(runIndex({ type: 'index', agent: 'claude-code', path, mappings: {} }, agents)).toEqual(separately('claude-code', path));
  });

  it.each(sessions.map((p) => [p.slice(root.length), p]))('%s: figures read without previews are a full read\'s', (_name, path) => {
    const locator = agents.byId('claude-code').locator;
    const full = locator.load(path);
    const figures = locator.load(path, { figuresOnly: true });
    expect(analysisOf(figures, null)).toEqual(analysisOf(full, null));
    // What was left out: previews, and nothing else of any block.
    const shown = [...full.session.nodes.values()].flatMap((n) => n.blocks).filter((b) => b.preview !== '');
    expect(shown.length).toBeGreaterThan(0);
    const strip = (s: typeof full.session) => [...s.nodes.values()].map((n) => n.blocks.map(({ preview: _p, ...rest }) => rest));
    expect(strip(figures.session)).toEqual(strip(full.session));
  });

  it('leaves a last line without its newline to the next pass, as the summary does', () => {
    const path = sessions[0] as string;
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    appendFileSync(path, (lines[1] ?? '').slice(0, 40));
    const both = runIndex({ type: 'index', agent: 'claude-code', path, mappings: {} }, agents);
    expect(both).toEqual(separately('claude-code', path));
    expect(both.summary.ok && both.summary.endOffset).toBe(statSync(path).size - 40);
  });

  it('checks the disk where the summary\'s cwd is mapped to', () => {
    const path = sessions.find((p) => p.includes('02-gone')) ?? (sessions[0] as string);
    const plain = runIndex({ type: 'index', agent: 'claude-code', path, mappings: {} }, agents);
    const cwd = plain.summary.ok ? (plain.summary.state.cwd as string) : '';
    const mapped = runIndex({ type: 'index', agent: 'claude-code', path, mappings: { [cwd]: '/nonexistent/moved' } }, agents);
    expect(mapped).toEqual(separately('claude-code', path, '/nonexistent/moved'));
    expect(mapped.analysis.ok && mapped.analysis.repoRoot).toBe('/nonexistent/moved');
  });

  it('reads an agent whose reader does not share its records twice, with the same result', () => {
    const path = rollouts[0] as string;
    expect(runIndex({ type: 'index', agent: 'codex', path, mappings: {} }, agents)).toEqual(separately('codex', path));
  });

  it('a full refresh stores the rows and analyses a summary-then-analysis refresh stores', async () => {
    const env = { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), CODEX_HOME: codexHome };
    const rowsOf = async (dataDir: string, staged: boolean) => {
      const index = openIndex({ dataDir, env, home: tree.dir, workers: 0, agents });
      if (staged) {
        await index.refresh({ analyze: false });
        await index.refresh();
      } else await index.refresh();
      const rows = index.list({ limit: 10_000, includeSubagents: true });
      await index.close();
      return rows.sort((a, b) => a.path.localeCompare(b.path));
    };
    const together = await rowsOf(join(tree.dir, 'data-together'), false);
    expect(together.filter((r) => r.kind === 'session' && r.agent === 'claude-code').every((r) => r.stage === 'analysed')).toBe(true);
    expect(together).toEqual(await rowsOf(join(tree.dir, 'data-staged'), true));
  });
});
