import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDeadClass, DEAD_CLASSES, type DeadClass } from '@glassbox/core';
import { analyzeSession } from '@glassbox/analysis';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { nodeAnalysisPorts } from '../shared/repo-port';
import { CORPUS, SCENARIOS } from '@glassbox/test-support/store/corpus';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';
import { forkPass, indexFromPlan, indexPass, type IndexedFork } from './fork-pass';
import { readLines, stampOfPath, type SourceStamp } from './lines';
import { planFromFile, planFromLines } from './plan-lines';

const NEW_ID = '00000000-2222-4333-8444-555555555555';
import { readSource } from './source';
import { agentForLines } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

function sessionOf(scenario: string): string {
  const dir = join(CORPUS, 'generated', scenario, 'claude-project');
  const file = readdirSync(dir).find((f) => f.endsWith('.jsonl'));
  if (!file) throw new Error(`no session in ${dir}`);
  return join(dir, file);
}

const OPTION_SETS: { name: string; classes?: DeadClass[]; withInferred: boolean; protectTail?: number; minimumSavings?: number }[] = [
  { name: 'defaults', withInferred: false },
  { name: 'every class, nothing protected, no minimum', classes: [...DEAD_CLASSES], withInferred: true, protectTail: 0, minimumSavings: 0 },
  { name: 'only duplicates', classes: ['duplicate'], withInferred: false, protectTail: 1 },
];

describe('the plan accounts for every dead segment', () => {
  for (const scenario of SCENARIOS) {
    for (const o of OPTION_SETS) {
      it(`${scenario}, ${o.name}: inspect's dead set = plan actions ∪ plan.excluded`, () => {
        const path = sessionOf(scenario);
        const repoRoot = join(CORPUS, 'generated', scenario, 'project-after');
        // What `inspect` classifies: the file read from disk.
        const { session, subagents } = loadSessionWithSubagents(path);
        const inspected = analyzeSession(session, nodeAnalysisPorts(), { repoRoot, withInferred: o.withInferred, subagents, ...(o.protectTail === undefined ? {} : { protectTail: o.protectTail }) });
        const dead = inspected.segments.filter((s) => isDeadClass(s.class)).map((s) => `${s.id} ${s.class}`);
        // What `clean` plans: the lines about to be forked.
        const { plan } = planFromLines(path, readSource(path).lines, { agent: agentForLines(TEST_AGENTS, readSource(path).lines),
          repoRoot,
          withInferred: o.withInferred,
          ...(o.classes ? { classes: o.classes } : {}),
          ...(o.protectTail === undefined ? {} : { protectTail: o.protectTail }),
          ...(o.minimumSavings === undefined ? {} : { minimumSavings: o.minimumSavings }),
        });
        const planned = [...plan.actions.map((a) => `${a.segmentId} ${a.class}`), ...plan.excluded.map((e) => `${e.segmentId} ${e.class}`)];
        expect(new Set(planned).size).toBe(planned.length);
        expect([...planned].sort()).toEqual([...dead].sort());
        for (const e of plan.excluded) expect(e.message.length).toBeGreaterThan(0);
      });
    }
  }

  it('proves drift on the fork path (02: the config the agent read, then changed on disk)', () => {
    const path = sessionOf('02-gone-drift-errors');
    const { plan, snapshot } = planFromLines(path, readSource(path).lines, { agent: agentForLines(TEST_AGENTS, readSource(path).lines), repoRoot: join(CORPUS, 'generated', '02-gone-drift-errors', 'project-after'), minimumSavings: 0 });
    const drift = snapshot.segments.filter((s) => s.class === 'stale-drift');
    expect(drift.map((s) => s.source.label)).toEqual(['src/config.json']);
    // Too small to be worth a tombstone in this session: listed, with that reason.
    expect(plan.excluded.filter((e) => e.class === 'stale-drift').map((e) => e.reason)).toEqual(['not-worth-a-tombstone']);
  });

  it('lists a class the user did not choose as class-not-chosen', () => {
    const path = sessionOf('01-superseded-reads');
    const { plan } = planFromLines(path, readSource(path).lines, { agent: agentForLines(TEST_AGENTS, readSource(path).lines), classes: ['duplicate'], protectTail: 0, minimumSavings: 0 });
    expect(plan.actions.every((a) => a.class === 'duplicate')).toBe(true);
    const superseded = plan.excluded.filter((e) => e.class === 'stale-superseded');
    expect(superseded.length).toBeGreaterThan(0);
    expect(new Set(superseded.map((e) => e.reason))).toEqual(new Set(['class-not-chosen']));
  });

  it('moves the whole plan to below-minimum-savings when it saves too little', () => {
    const path = sessionOf('01-superseded-reads');
    const { plan } = planFromLines(path, readSource(path).lines, { agent: agentForLines(TEST_AGENTS, readSource(path).lines), protectTail: 0, minimumSavings: 1_000_000 });
    expect(plan.actions).toEqual([]);
    expect(plan.excluded.some((e) => e.reason === 'below-minimum-savings')).toBe(true);
    expect(plan.reasons.map((r) => r.code)).toContain('below_minimum_savings');
  });
});

describe('the index from the plan’s parse (only the lines the builder needs) prepares what a pass over every line does', () => {
  for (const scenario of SCENARIOS) {
    it(scenario, () => {
      const path = sessionOf(scenario);
      const repoRoot = join(CORPUS, 'generated', scenario, 'project-after');
      const planned = planFromFile(path, { agent: agentForFile(TEST_AGENTS, path), repoRoot, withInferred: true, classes: [...DEAD_CLASSES], protectTail: 0, minimumSavings: 0, forkSessionId: NEW_ID });
      if (planned.actions.length === 0) return;
      const format = agentForFile(defaultAgents(), path).format;
      const stamp = stampOfPath(path) as SourceStamp;
      // The plan took the placed lines: the builder placed every one of its actions, and each is read
      // where the parse put it, exactly.
      const refs = format.createForkBuilder(planned.actions, NEW_ID).indexLines?.(planned.session) ?? null;
      expect(refs).not.toBeNull();
      const lines = readSource(path).lines;
      expect(readLines(path, refs ?? [], stampOfPath(path) as SourceStamp)).toEqual((refs ?? []).map((r) => lines[r.line - 1]));
      const full = indexPass(format, path, planned.actions, NEW_ID, { expect: stamp });
      const placed = planned.indexed as IndexedFork;
      expect(placed.prepared).toEqual(full.prepared);
      expect([placed.pass.crc32, placed.pass.bytes, placed.pass.endsWithNewline]).toEqual([full.pass.crc32, full.pass.bytes, full.pass.endsWithNewline]);
      // And the fork pass after it gives the same fork, validated.
      const a = forkPass(format, path, placed, { original: planned.session });
      const b = forkPass(format, path, full, { original: planned.session });
      expect(a.report.ok).toBe(true);
      expect(a.outcome).toEqual(b.outcome);
    });
  }

  it('falls back to the full pass when an action names a line its record is not on', () => {
    const path = sessionOf('01-superseded-reads');
    const planned = planFromFile(path, { agent: agentForFile(TEST_AGENTS, path), withInferred: true, classes: [...DEAD_CLASSES], protectTail: 0, minimumSavings: 0, forkSessionId: NEW_ID });
    const format = agentForFile(defaultAgents(), path).format;
    const moved = planned.actions.map((a, i) => (i === 0 ? { ...a, line: (a.line ?? 1) + 1 } : a));
    expect(format.createForkBuilder(moved, NEW_ID).indexLines?.(planned.session)).toBeNull();
    const stamp = stampOfPath(path) as SourceStamp;
    const viaPlan = indexFromPlan(format, path, planned.session, moved, NEW_ID, { expect: stamp });
    const full = indexPass(format, path, moved, NEW_ID, { expect: stamp });
    expect(viaPlan.prepared).toEqual(full.prepared);
    expect(viaPlan.prepared.refused.map((r) => r.code)).toContain('line_mismatch');
  });
});
