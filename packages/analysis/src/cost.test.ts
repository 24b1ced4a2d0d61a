import { describe, expect, it } from 'vitest';
import { CLAUDE_PRICES } from '@glassbox/adapter-claude-code';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { computeCost } from './cost';
import { responsesOf } from './usage';
import { generatedSession } from '@glassbox/test-support/analysis/fixtures';

describe('cost of a real session', () => {
  const { session, subagents } = loadSessionWithSubagents(generatedSession('01-superseded-reads'));
  const report = computeCost(session, subagents, CLAUDE_PRICES);

  it('counts one figure per API response, not per record', () => {
    // The first response is written as several records (one per content block) with the same usage.
    const records = session.order.map((u) => session.nodes.get(u)).filter((n) => n?.kind === 'assistant' && n.messageId === 'msg_01ZSAiNEmHnGGGADQ3WTY0hmVP');
    expect(records.length).toBeGreaterThan(1);
    const messageIds = new Set(session.order.map((u) => session.nodes.get(u)).filter((n) => n?.kind === 'assistant').map((n) => `${n?.messageId}:${n?.requestId}`));
    expect(report.total.responses).toBe(messageIds.size + subagents.reduce((n, s) => n + new Set([...s.nodes.values()].filter((x) => x.kind === 'assistant').map((x) => `${x.messageId}:${x.requestId}`)).size, 0));
  });

  it('prices the first response as computed by hand', () => {
    // 1,520 input + 17,358 five-minute cache writes + 90 output on Claude Opus 4.8 ($5 / $25 per MTok,
    // writes 1.25× input): (1520×5 + 17358×6.25 + 90×25) / 1e6 = $0.1183375.
    const one = computeCost({ ...session, order: session.order.filter((u) => session.nodes.get(u)?.messageId === 'msg_01ZSAiNEmHnGGGADQ3WTY0hmVP'), prunedUsage: [] }, [], CLAUDE_PRICES);
    expect(one.total.responses).toBe(1);
    expect(one.total.cost).toBeCloseTo(0.1183375, 10);
    expect(one.byModel.map((m) => m.priceLabel)).toEqual(['Claude Opus 4.8']);
  });

  it('adds up: the total is the sum of the turns and of the models', () => {
    const sum = (xs: { cost: number | null }[]) => xs.reduce((n, x) => n + (x.cost ?? 0), 0);
    expect(report.total.cost).not.toBeNull();
    expect(sum(report.turns)).toBeCloseTo(report.total.cost ?? 0, 9);
    expect(sum(report.byModel)).toBeCloseTo(report.total.cost ?? 0, 9);
    expect(report.unknownModels).toEqual([]);
    expect(report.priceTable.asOf).toBe(CLAUDE_PRICES.asOf);
  });

  it('leaves a model without a price unpriced, and names it', () => {
    const noPrices = computeCost(session, subagents, { asOf: '2026-01-01', source: 'empty', models: [] });
    expect(noPrices.total.cost).toBeNull();
    expect(noPrices.unknownModels).toContain('claude-opus-4-8');
  });
});

describe("the client's own figure beside Glassbox's (Claude Code 2.1.332 cost-state records)", () => {
  const cost = (name: string) => {
    const { session, subagents } = loadSessionWithSubagents(generatedSession(name));
    return computeCost(session, subagents, CLAUDE_PRICES);
  };

  it('agrees within 1 % where every request of the session is in its transcript', () => {
    for (const name of ['19-newest-client-window', '21-newest-client-agents-tools']) {
      const c = cost(name).client;
      expect(c, name).not.toBeNull();
      expect(c?.differs, name).toBe(false);
      expect(Math.abs((c?.glassboxUsd ?? 0) - (c?.clientUsd ?? 0)) / (c?.clientUsd ?? 1), name).toBeLessThan(0.01);
    }
  });

  it('flags a model without a price: Glassbox says it does not know it, the client guessed', () => {
    const r = cost('20-newest-client-models');
    expect(r.unknownModels).toEqual(['claude-opus-9-9']);
    expect(r.client).toMatchObject({ glassboxUsd: null, differs: true, clientGuessed: true });
    const known = r.client?.byModel.filter((m) => m.model !== 'claude-opus-9-9') ?? [];
    expect(known.map((m) => m.model).sort()).toEqual(['claude-opus-5-5', 'claude-sonnet-4-5', 'claude-sonnet-4-6']);
    for (const m of known) expect(m.differs, m.model).toBe(false);
  });

  it('flags requests the transcript does not log (the compaction request): the client counts more tokens', () => {
    const c = cost('23-newest-client-autocompact').client;
    expect(c?.differs).toBe(true);
    const m = c?.byModel.find((x) => x.model === 'claude-opus-5-5');
    expect((m?.clientTokens ?? 0) - (m?.glassboxTokens ?? 0)).toBeGreaterThan(5000);
  });

  it('sessions of older clients carry no figure of their own', () => {
    expect(cost('01-superseded-reads').client).toBeNull();
  });
});

describe('a session with a placeholder reply the client wrote itself', () => {
  it('lists no "<synthetic>" model (no $0.00 row), and the models still add up to the total', () => {
    const { session, subagents } = loadSessionWithSubagents(generatedSession('18-compaction-kept-dropped'));
    expect([session, ...subagents].flatMap((s) => responsesOf(s)).some((x) => x.synthetic && x.model === '<synthetic>')).toBe(true);
    const r = computeCost(session, subagents, CLAUDE_PRICES);
    expect(r.byModel.map((m) => m.model)).not.toContain('<synthetic>');
    expect(r.byModel.reduce((n, m) => n + (m.cost ?? 0), 0)).toBeCloseTo(r.total.cost ?? 0, 9);
  });
});
