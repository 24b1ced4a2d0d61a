import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFork } from './apply';
import { liveChain, parseLines } from './chain';
import { validateFork } from './validate';
import { NEW_ID, candidateActions, claudeTranscripts, readLines } from './test-corpus';
import type { ForkAction } from './types';

/**
 * For random plans over every Claude Code transcript of the corpus — real payloads with random
 * tombstones, plus actions that name records, blocks or targets wrongly — the fork either validates
 * and re-parses to the same live chain with fewer tokens, or is refused; lines outside the plan are
 * byte-identical but for the session id; the original's lines are never modified.
 */
describe('fork properties over the corpus', () => {
  for (const { name, path } of claudeTranscripts()) {
    it(name, () => {
      const lines = readLines(path);
      const frozen = lines.join('\n');
      const candidates = candidateActions(lines);
      const uuids = lines.map((l) => (JSON.parse(l) as { uuid?: string }).uuid).filter((u): u is string => typeof u === 'string');
      const tombstone = fc.oneof(
        fc.constantFrom('[glassbox: removed]', '[glassbox: removed a read (stale-superseded); sha256 0123456789ab]'),
        fc.string({ minLength: 0, maxLength: 300 }),
        fc.string({ minLength: 2000, maxLength: 4000 }),
      );
      const real = candidates.length > 0 ? fc.subarray(candidates) : fc.constant([] as ForkAction[]);
      const wrong: fc.Arbitrary<ForkAction> = fc.record({
        uuid: uuids.length > 0 ? fc.oneof(fc.constantFrom(...uuids), fc.uuid()) : fc.uuid(),
        blockIndex: fc.integer({ min: 0, max: 4 }),
        target: fc.constantFrom('tool-result' as const, 'tool-input' as const),
        tombstone: fc.constant('[glassbox: removed]'),
      });
      const plan = fc.tuple(real, fc.array(tombstone, { maxLength: 64 }), fc.array(wrong, { maxLength: 4 })).map(([picked, texts, bad]) => [
        ...picked.map((a, i) => (texts[i] === undefined ? a : { ...a, tombstone: texts[i] })),
        ...bad,
      ]);
      fc.assert(
        fc.property(plan, (actions) => {
          const fork = buildFork(lines, actions, NEW_ID);
          expect(fork.applied.length + fork.refused.length).toBe(actions.length);
          expect(fork.lines).toHaveLength(lines.length);
          const touched = new Set(fork.touchedLines);
          lines.forEach((line, i) => {
            if (touched.has(i + 1)) return;
            const sid = (JSON.parse(line) as { sessionId?: string }).sessionId;
            expect(fork.lines[i]).toBe(sid ? line.replace(`"sessionId":"${sid}"`, `"sessionId":"${NEW_ID}"`) : line);
          });
          const report = validateFork(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
          if (report.ok) {
            const a = liveChain(parseLines(lines, 'o'));
            const b = liveChain(parseLines(fork.lines, 'f'));
            expect(b.uuids).toEqual(a.uuids);
            expect(b.leafUuid).toBe(a.leafUuid);
            if (fork.applied.length > 0) expect(b.estimatedTokens).toBeLessThan(a.estimatedTokens);
            else expect(b.estimatedTokens).toBe(a.estimatedTokens);
          } else {
            // A refusal names the check that failed, with where.
            const failed = report.checks.filter((c) => !c.ok);
            expect(failed.length).toBeGreaterThan(0);
            for (const c of failed) expect(c.failures.length).toBeGreaterThan(0);
          }
          expect(lines.join('\n')).toBe(frozen);
        }),
        { numRuns: 40, seed: 20261130 },
      );
    });
  }
});
