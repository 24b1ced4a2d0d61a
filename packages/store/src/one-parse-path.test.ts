// The session list and the analysis read a transcript with the same record interpretation (the agent's
// adapter): on every real transcript in the corpus, the list's turns, context figure and cost are the
// analysis's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSession, computeCost } from '@glassbox/analysis';
import { defaultAgents } from '@glassbox/agents';
import { nodeAnalysisPorts, openIndex, type SessionIndex, type SessionRow } from './index';
import { SCENARIOS, copyPublic, copyScenario, tempTree, type TempTree } from './test-corpus';

const agents = defaultAgents();
let tree: TempTree;
let index: SessionIndex;
let rows: SessionRow[];

beforeAll(async () => {
  tree = tempTree();
  const root = tree.root('claude');
  for (const s of SCENARIOS) copyScenario(root, s);
  copyPublic(root, 'd-kimuson__claude-code-viewer');
  index = openIndex({ dataDir: tree.dir, roots: [root], workers: 0, agents });
  await index.refresh();
  rows = index.list({ limit: 10_000 });
});
afterAll(async () => {
  await index.close();
  tree.cleanup();
});

describe('one parse path', () => {
  it('covers the corpus', () => {
    expect(rows.length).toBeGreaterThan(SCENARIOS.length);
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
      expect({ path: row.path, turns: row.turns, context: row.contextTokens, cost: round(row.totalCostUsd) }).toEqual({
        path: row.path,
        turns: prompts,
        context: snapshot.context.reportedTokens,
        cost: round(cost),
      });
    }
  });
});

function round(n: number | null): number | null {
  return n === null ? null : Math.round(n * 1e6) / 1e6;
}
