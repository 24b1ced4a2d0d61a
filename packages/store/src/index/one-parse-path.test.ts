// The session list and the analysis read a transcript with the same record interpretation (the agent's
// adapter): on every real transcript in the corpus — Claude Code sessions in a projects root, Codex
// rollouts in a CODEX_HOME-shaped copy — the list's turns, context figure and cost are the analysis's.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSession, computeCost } from '@glassbox/analysis';
import { defaultAgents } from '@glassbox/agents';
import { nodeAnalysisPorts, openIndex, type SessionIndex, type SessionRow } from './index';
import { SCENARIOS, copyCodexHome, copyPublic, copyScenario, tempTree, type TempTree } from '../test-corpus';

const agents = defaultAgents();
let tree: TempTree;
let index: SessionIndex;
let rows: SessionRow[];
let rollouts: string[];

beforeAll(async () => {
  tree = tempTree();
  const root = tree.root('claude');
  for (const s of SCENARIOS) copyScenario(root, s);
  copyPublic(root, 'd-kimuson__claude-code-viewer');
  const codexHome = join(tree.dir, 'codex-home');
  rollouts = copyCodexHome(codexHome);
  index = openIndex({ dataDir: tree.dir, env: { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), CODEX_HOME: codexHome }, home: tree.dir, workers: 0, agents });
  await index.refresh();
  rows = index.list({ limit: 10_000 });
});
afterAll(async () => {
  await index.close();
  tree.cleanup();
});

describe('one parse path', () => {
  it('covers the corpus', () => {
    expect(rows.filter((r) => r.agent === 'claude-code').length).toBeGreaterThan(SCENARIOS.length);
  });

  it('lists every Codex rollout as a Codex session of the folder it ran in, analysed', () => {
    const codex = rows.filter((r) => r.agent === 'codex');
    expect(codex.map((r) => r.path).sort()).toEqual(rollouts);
    // 01–06 (04, 05 and 06 hold two each: a `codex exec fork`, two subagent threads) and the two public ones.
    expect(rollouts).toHaveLength(11);
    for (const r of codex) {
      expect(r.stage, r.path).toBe('analysed');
      expect(r.analysisError, r.path).toBeNull();
      expect(r.project).toBe(r.cwd?.split('/').pop());
      expect(r.problems).toBe(0);
    }
  });

  it('the list shows the analysis’s prompts, reported context and cost for every session', () => {
    for (const row of rows) {
      const agent = agents.byId(row.agent);
      const { session, subagents } = agent.locator.load(row.path);
      const snapshot = analyzeSession(session, nodeAnalysisPorts(), { subagents });
      const prompts = session.order.filter((u) => {
        const n = session.nodes.get(u);
        return n?.kind === 'prompt' && !n.isSidechain;
      }).length;
      const cost = computeCost(session, subagents, agent.format.prices).total.cost;
      expect({ path: row.path, turns: row.turns, context: row.contextTokens, cost: round(row.totalCostUsd), estimated: row.estimatedTokens }).toEqual({
        path: row.path,
        turns: prompts,
        context: snapshot.context.reportedTokens,
        cost: round(cost),
        estimated: snapshot.context.estimatedTokens,
      });
    }
  });
});

function round(n: number | null): number | null {
  return n === null ? null : Math.round(n * 1e6) / 1e6;
}
