import { readFileSync, rmSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeadClass } from '@glassbox/core';
import { sha256Hex } from './archive';
import { ForkError } from '../shared/atomic';
import { verifyFork } from './ops';
import { planFromLines } from './plan-lines';
import { scratchSession, tree, type Scratch } from '@glassbox/test-support/store/fork';
import { writeFork } from './writer';
import { defaultAgents } from '@glassbox/agents';
import { agentForLines } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const CLASSES: DeadClass[] = ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'];
const scratches: Scratch[] = [];
/** Forks written and empty plans refused, of the 15 seeded runs on each session. */
const OUTCOMES: Record<string, [number, number]> = {
  '01-superseded-reads': [11, 4],
  '02-gone-drift-errors': [11, 4],
  '03-large-outputs': [15, 0],
  '07-interactive-tui': [2, 13],
};
afterAll(() => {
  for (const s of scratches) rmSync(s.root, { recursive: true, force: true });
});

/**
 * Random plans from the real planner (random classes, protected tail, and a random subset of its
 * actions) written to disk: each run either writes a fork that verifies against its archived
 * original, or writes nothing at all; the original's bytes never change.
 */
describe('writeFork properties', () => {
  for (const name of ['01-superseded-reads', '02-gone-drift-errors', '03-large-outputs', '07-interactive-tui']) {
    it(name, () => {
      const s = scratchSession(name);
      scratches.push(s);
      const hash = sha256Hex(readFileSync(s.sourcePath));
      const lines = readFileSync(s.sourcePath, 'utf8').split('\n').slice(0, -1);
      const arb = fc.record({
        classes: fc.subarray(CLASSES, { minLength: 1 }),
        protectTail: fc.integer({ min: 0, max: 3 }),
        keep: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
      });
      let written = 0;
      let nothing = 0;
      fc.assert(
        fc.property(arb, ({ classes, protectTail, keep }) => {
          const options = { agent: agentForLines(TEST_AGENTS, lines), repoRoot: s.repoRoot, classes, protectTail, minimumSavings: 0, withInferred: classes.includes('spent') };
          const all = planFromLines(s.sourcePath, lines, options).actions;
          const actions = all.filter((_, i) => keep[i % keep.length]);
          const before = tree(s.projectDir);
          let result;
          try {
            result = writeFork({ agents: TEST_AGENTS, sourcePath: s.sourcePath, archiveDir: s.archiveDir, prepare: () => ({ actions }) });
          } catch (error) {
            expect(error).toBeInstanceOf(ForkError);
            expect((error as ForkError).code).toBe('nothing_to_do');
            expect(actions).toEqual([]);
            expect(tree(s.projectDir)).toEqual(before);
            nothing++;
            return;
          }
          // The real planner's plans always validate (refusals, which write nothing: writer.test.ts).
          expect(result.status).toBe('written');
          if (result.status !== 'written') return;
          written++;
          expect(result.applied.length).toBe(actions.length);
          const v = verifyFork(result.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir });
          expect(v.report.ok && v.unchanged).toBe(true);
          rmSync(result.forkPath);
          if (result.sidecarDir) rmSync(result.sidecarDir, { recursive: true });
          expect(sha256Hex(readFileSync(s.sourcePath))).toBe(hash);
        }),
        { numRuns: 15, seed: 424242 },
      );
      // How often each outcome was met: a fork written, or an empty plan refused with nothing written.
      expect([written, nothing]).toEqual(OUTCOMES[name]);
    });
  }
});
