// What the list's full-text search holds of each agent's sessions (core's SEARCH_LIMITS): the replies
// and the heads of the tool results as well as the prompts, within a budget per file, the same whether
// the file was read at once or resumed from a checkpoint after an append.
import { readFileSync } from 'node:fs';
import { SEARCH_LIMITS, SUMMARY_STATE_VERSION, type Agent, type SummaryState } from '@glassbox/core';
import { describe, expect, it } from 'vitest';
import { defaultAgents } from './index';
import { CONFORMANCE_FIXTURES } from '@glassbox/test-support/agents/fixtures';

const registry = defaultAgents();

function linesOf(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function pass(agent: Agent, state: SummaryState | null, lines: readonly string[], from = 0) {
  const s = agent.format.createSummarizer(state, false);
  lines.forEach((l, i) => s.line(l, from + i + 1));
  return s.finish();
}

describe.each(Object.entries(CONFORMANCE_FIXTURES))('%s', (agentId, fixtures) => {
  const agent = registry.byId(agentId);
  it.each(fixtures().map((f) => [f.name, f] as const))('%s: the search holds its replies and tool results, within the budget', (_name, f) => {
    const lines = linesOf(f.path);
    const session = agent.format.parseLines(lines, { path: f.path, fallbackId: 'x', keepCapturedText: false });
    const whole = pass(agent, null, lines);
    expect(whole.state.v).toBe(SUMMARY_STATE_VERSION);
    const used = (k: string) => (typeof whole.state.ext[k] === 'number' ? (whole.state.ext[k] as number) : 0);
    expect(used('searchReplyChars')).toBeLessThanOrEqual(SEARCH_LIMITS.replyBudget);
    expect(used('searchResultChars')).toBeLessThanOrEqual(SEARCH_LIMITS.resultBudget);
    const nodes = session.order.map((u) => session.nodes.get(u)).filter((n) => n !== undefined);
    const reply = nodes.flatMap((n) => (n.kind === 'assistant' ? n.blocks.filter((b) => b.kind === 'text' && b.preview.trim().length > 12) : []))[0];
    const result = nodes.flatMap((n) => n.blocks.filter((b) => b.kind === 'tool-result' && b.preview.trim().length > 12))[0];
    // Every session the corpus holds has a reply; the first one's opening words are searchable.
    if (reply) expect(whole.searchText).toContain(reply.preview.trim().slice(0, 12));
    if (result) expect(used('searchResultChars')).toBeGreaterThan(0);
    expect(reply ?? result).toBeDefined();
    // Resumed after an append, an append-only file's passes hold what one pass does.
    if (!agent.format.source.appendOnly) return;
    const cut = Math.floor(lines.length / 2);
    const first = pass(agent, null, lines.slice(0, cut));
    const second = pass(agent, JSON.parse(JSON.stringify(first.state)) as SummaryState, lines.slice(cut), cut);
    expect(second.state.ext['searchResultChars'] ?? 0).toBe(whole.state.ext['searchResultChars'] ?? 0);
    expect(second.state.ext['searchReplyChars'] ?? 0).toBe(whole.state.ext['searchReplyChars'] ?? 0);
  });
});
