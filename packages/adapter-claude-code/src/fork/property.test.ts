import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFork } from './apply';
import { liveChain, parseLines } from './chain';
import { validateFork } from './validate';
import { NEW_ID, candidateActions, claudeTranscripts, readLines } from '@glassbox/test-support/claude-code/fork-corpus';
import type { ForkAction } from './types';

/**
 * For random plans over every Claude Code transcript of the corpus — real payloads with random
 * tombstones, plus actions that name records, blocks or targets wrongly — the fork either validates
 * and re-parses to the same live chain with fewer tokens, or is refused; lines outside the plan are
 * byte-identical but for the session id; the original's lines are never modified.
 */
/** Of the 40 seeded runs on each transcript: [validated with tombstones, validated with none, refused]. */
const OUTCOMES: Record<string, [number, number, number]> = {
  '01-superseded-reads': [36, 4, 0],
  '02-gone-drift-errors': [31, 8, 1],
  '03-large-outputs': [33, 7, 0],
  '04-subagent-compact-multiturn': [22, 7, 11],
  '05-autocompact': [18, 16, 6],
  '06-fork-session': [9, 31, 0],
  '07-interactive-tui': [17, 15, 8],
  '19-newest-client-window': [35, 5, 0],
  '20-newest-client-models': [24, 16, 0],
  '21-newest-client-agents-tools': [25, 15, 0],
  '22-newest-client-tui': [17, 15, 8],
  '23-newest-client-autocompact': [17, 19, 4],
  'd-kimuson__claude-code-viewer/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl': [26, 14, 0],
  'd-kimuson__claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': [30, 3, 7],
  'd-kimuson__claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl': [22, 3, 15],
  'DRMacIver__claude-reliability/coverage-test-fix/transcript.jsonl': [35, 5, 0],
  'DRMacIver__claude-reliability/python-to-rust-port/transcript.jsonl': [35, 5, 0],
  'DRMacIver__claude-reliability/stop-hook-reflection-first-stop/transcript.jsonl': [29, 11, 0],
};

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
      // runs that validated with tombstones applied, validated with none applied, were refused
      const met: [number, number, number] = [0, 0, 0];
      fc.assert(
        fc.property(plan, (actions) => {
          const fork = buildFork(lines, actions, NEW_ID);
          expect(fork.applied.length + fork.refused.length).toBe(actions.length);
          expect(fork.lines).toHaveLength(lines.length);
          const touched = new Set(fork.touchedLines);
          lines.forEach((line, i) => {
            if (touched.has(i + 1)) return;
            const sid = (JSON.parse(line) as { sessionId?: string }).sessionId;
            expect(fork.lines[i]).toBe(sid ? line.replace(`"sessionId":"${sid}"`, `"sessionId":"${NEW_ID}"`).replace(`"session_id":"${sid}"`, `"session_id":"${NEW_ID}"`) : line);
          });
          const report = validateFork(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
          if (report.ok) {
            const a = liveChain(parseLines(lines, 'o'));
            const b = liveChain(parseLines(fork.lines, 'f'));
            expect(b.uuids).toEqual(a.uuids);
            expect(b.leafUuid).toBe(a.leafUuid);
            // fewer tokens when something was tombstoned, the same when nothing was
            expect(Math.sign(b.estimatedTokens - a.estimatedTokens)).toBe(fork.applied.length > 0 ? -1 : 0);
            met[fork.applied.length > 0 ? 0 : 1]++;
          } else {
            met[2]++;
            if (process.env['GLASSBOX_PROPERTY_VERBOSE']) console.log(name, JSON.stringify(report.checks.filter((c) => !c.ok)).slice(0, 600));
            // A refusal names the check that failed, with where.
            const failed = report.checks.filter((c) => !c.ok);
            expect(failed.length).toBeGreaterThan(0);
            for (const c of failed) expect(c.failures.length).toBeGreaterThan(0);
          }
          expect(lines.join('\n')).toBe(frozen);
        }),
        { numRuns: 40, seed: 20261130 },
      );
      expect(met).toEqual(OUTCOMES[name]);
    });
  }
});
