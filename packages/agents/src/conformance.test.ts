// The contract every adapter meets, on the transcripts its real client wrote (fixtures/corpus): the
// registry recognises the file as the agent's and no other's; the parse has no fatal problem; the
// list's summary gives the analysis's figures (turns, context, requests, cost); the plan of the
// unchanged analysis becomes a fork the adapter's validator passes, that parses as a session of its
// own; and the resume instruction names the fork. A new adapter adds its fixtures to
// test-support/fixtures.ts and passes this suite.
import { readFileSync } from 'node:fs';
import { analyzeSession, computeCost, planEviction, responsesOf, type AnalysisPorts } from '@glassbox/analysis';
import { buildForkFromLines, findPrice, isFatal, resumeFrom, usageCost, validateFromLines, type Agent, type MessageUsage } from '@glassbox/core';
import { describe, expect, it } from 'vitest';
import { defaultAgents } from './index';
import { CONFORMANCE_FIXTURES, type ConformanceFixture } from '@glassbox/test-support/agents/fixtures';
import { fixturePorts } from '@glassbox/test-support/ports';

const registry = defaultAgents();

/** The clock at the day the corpus was recorded: the same figures on any day the suite runs. */
const ports: AnalysisPorts = fixturePorts('2026-12-02');

function linesOf(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function summarise(agent: Agent, lines: readonly string[]) {
  const s = agent.format.createSummarizer(null, false);
  lines.forEach((l, i) => s.line(l, i + 1));
  return s.finish();
}

function costOf(agent: Agent, messages: readonly MessageUsage[]): number | null {
  let total = 0;
  for (const m of messages) {
    if (m.synthetic) continue;
    const p = findPrice(m.model ?? '', agent.format.prices);
    if (!p) return null;
    total += usageCost({ inputTokens: m.input, outputTokens: m.output, cacheCreationTokens: m.cacheCreation, cacheReadTokens: m.cacheRead, cacheCreation5mTokens: m.cacheCreation - m.cacheCreation1h, cacheCreation1hTokens: m.cacheCreation1h }, p);
  }
  return total;
}

describe.each(registry.agents.map((a) => [a.format.id, a] as const))('%s conforms', (id, agent) => {
  const fixtures = (CONFORMANCE_FIXTURES[id] ?? (() => []))();

  it('has fixtures from its real client', () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s: recognised as its own, by no other agent', (_n, f: ConformanceFixture) => {
    const head = linesOf(f.path).slice(0, 40);
    expect(registry.recognise(head).agent?.format.id).toBe(id);
    expect(agent.format.recognise(head)).toEqual({ verdict: 'yes' });
    // No other adapter claims it (one may be unsure: Claude Code's says 'unknown' to a Gemini 0.28/0.38 document).
    for (const other of registry.agents) if (other !== agent) expect({ other: other.format.id, verdict: other.format.recognise(head).verdict }).not.toEqual({ other: other.format.id, verdict: 'yes' });
    expect(agent.locator.isSessionFileName?.(f.path.split('/').pop() as string) ?? agent.format.source.extensions.some((e) => f.path.endsWith(e))).toBe(true);
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s: parses, and the list summary gives the analysis’s figures', (_n, f: ConformanceFixture) => {
    const session = agent.locator.parseFile(f.path);
    expect(isFatal(session.problems)).toBe(false);
    expect(session.agent).toBe(id);
    expect(session.order.length).toBeGreaterThan(0);
    const snapshot = analyzeSession(session, ports, f.repoRoot ? { repoRoot: f.repoRoot } : {});
    const cost = computeCost(session, [], agent.format.prices);
    const pass = summarise(agent, linesOf(f.path));
    // A placeholder reply the client wrote itself (no model ran) costs nothing: counted or not, it is not a request.
    const real = responsesOf(session).filter((r) => !r.synthetic).length;
    const prompts = session.order.filter((u) => {
      const n = session.nodes.get(u);
      return n?.kind === 'prompt' && !n.isSidechain;
    }).length;
    expect({ turns: pass.state.turns, context: pass.state.contextTokens, requests: pass.messages.filter((m) => !m.synthetic).length, sessionId: pass.state.sessionId, firstPrompt: pass.state.firstPrompt }).toEqual({
      turns: prompts,
      context: snapshot.context.reportedTokens,
      requests: real,
      sessionId: session.id,
      firstPrompt: session.firstPrompt,
    });
    const listed = costOf(agent, pass.messages);
    if (cost.total.cost === null) expect(listed).toBeNull();
    else expect(listed).toBeCloseTo(cost.total.cost, 9);
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s: the plan forks, the fork validates and is a session of its own that resumes by its id', (_n, f: ConformanceFixture) => {
    const session = agent.locator.parseFile(f.path);
    const snapshot = analyzeSession(session, ports, f.repoRoot ? { repoRoot: f.repoRoot } : {});
    const plan = planEviction(snapshot);
    const lines = linesOf(f.path);
    const newId = agent.locator.naming?.newSessionId(new Date('2026-12-02T12:00:00Z')) ?? '00000000-0000-4000-8000-000000000001';
    const fork = buildForkFromLines(agent.format.createForkBuilder(plan.actions, newId), lines);
    expect(fork.newSessionId).toBe(newId);
    expect(fork.lines).toHaveLength(lines.length);
    const report = validateFromLines(agent.format.createForkValidator({ touchedLines: fork.touchedLines }), lines, fork.lines);
    if (fork.lines.every((l, i) => l === lines[i])) {
      // A file the adapter will not fork (one that resumes through another) comes back unchanged, every
      // action refused, and its validator fails it: a copy with the original's id is never a fork.
      expect(fork.applied).toEqual([]);
      expect(report.ok).toBe(false);
      return;
    }
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.fork.sessionId).toBe(newId);
    expect(report.original.sessionId).not.toBe(newId);
    if (fork.applied.some((a) => a.removed.length > 0)) expect(report.touchedLines.length).toBeGreaterThan(0);
    const forked = agent.format.parseLines(fork.lines, { path: f.path });
    expect(isFatal(forked.problems)).toBe(false);
    expect(forked.id).toBe(newId);
    // What the model will read shrank where the plan said: each applied payload is smaller in the fork's window.
    const original = agent.format.parseLines(lines, { path: f.path });
    for (const a of fork.applied.filter((x) => x.removed.length > 0)) {
      const before = original.nodes.get(a.action.uuid)?.blocks[a.action.blockIndex]?.bytes;
      const after = forked.nodes.get(a.action.uuid)?.blocks[a.action.blockIndex]?.bytes;
      expect({ segment: `${a.action.uuid}:${a.action.blockIndex}`, smaller: before !== undefined && after !== undefined && after < before }).toEqual({ segment: `${a.action.uuid}:${a.action.blockIndex}`, smaller: true });
    }
    const resume = resumeFrom(agent.format, { sessionId: newId, sessionPath: f.path, cwd: '/tmp', cwdExists: true, mapped: null, mappedExists: false });
    expect(resume.command).toContain(newId);
  });

  it('some fixture has dead content the fork removes', () => {
    const removed = fixtures.some((f) => {
      const session = agent.locator.parseFile(f.path);
      const plan = planEviction(analyzeSession(session, ports, f.repoRoot ? { repoRoot: f.repoRoot } : {}));
      const fork = buildForkFromLines(agent.format.createForkBuilder(plan.actions, '00000000-0000-4000-8000-000000000002'), linesOf(f.path));
      return fork.applied.some((a) => a.removed.length > 0);
    });
    expect(removed).toBe(true);
  });
});
