import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CLAUDE_PRICES, TranscriptParser } from '@glassbox/adapter-claude-code';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { analyzeSession } from './analyze';
import { planEviction } from './plan';
import { computeCost } from './cost';
import { generatedSession } from '@glassbox/test-support/analysis/fixtures';

type Obj = Record<string, unknown>;
const ODD_VALUES: unknown[] = [null, 42, -1, '', 'x', [], {}, [null], { type: 'text' }, true];

/** Every path to a value inside a record, so a mutation can reach nested fields. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (prefix.length > 0) out.push(prefix);
  if (prefix.length > 6) return out;
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

function setAt(root: Obj, path: (string | number)[], value: unknown): void {
  let cur: unknown = root;
  for (const key of path.slice(0, -1)) cur = (cur as Record<string | number, unknown>)[key];
  (cur as Record<string | number, unknown>)[path[path.length - 1] as string | number] = value;
}

describe('transcripts of shapes no version wrote', () => {
  const files = ['01-superseded-reads', '04-subagent-compact-multiturn', '07-interactive-tui'].map(generatedSession);

  it('never throw: any field of any record replaced by an odd value gives problems, not a crash', () => {
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      fc.assert(
        fc.property(fc.nat(lines.length - 1), fc.nat(), fc.constantFrom(...ODD_VALUES), (lineIndex, pick, odd) => {
          const record = JSON.parse(lines[lineIndex] ?? '{}') as Obj;
          const all = paths(record);
          const path = all[pick % all.length];
          if (path) setAt(record, path, structuredClone(odd));
          const parser = new TranscriptParser({ path: file });
          lines.forEach((l, i) => {
            const text = i === lineIndex ? JSON.stringify(record) : l;
            parser.push(text, i + 1, 0, text.length);
          });
          const session = parser.finish(true);
          const snap = analyzeSession(session, nodeAnalysisPorts());
          planEviction(snap);
          computeCost(session, [], CLAUDE_PRICES);
          expect(Number.isFinite(snap.context.estimatedTokens)).toBe(true);
          // Odd shapes are handled by the parser itself, not by its last-resort guard.
          expect(session.problems.filter((p) => p.code === 'invalid_record')).toEqual([]);
        }),
        { numRuns: 150 },
      );
    }
  });
});
