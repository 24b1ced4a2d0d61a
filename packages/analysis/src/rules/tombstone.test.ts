import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isDeadClass, tombstoneHash } from '@glassbox/core';
import { buildFork, parseLines } from '@glassbox/adapter-claude-code';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { analyzeSession } from '../analyze';
import { planEviction } from '../plan';
import { analyzeFile, generatedSession, projectAfter } from '@glassbox/test-support/analysis/fixtures';

/** A real session, forked in memory with the planner's own actions (every class, nothing protected). */
function forkOf(scenario: string) {
  const path = generatedSession(scenario);
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const repoRoot = projectAfter(scenario);
  const original = analyzeFile(path, { repoRoot, protectTail: 0 });
  const plan = planEviction(original, { minimumSavings: 0 });
  const fork = buildFork(lines, plan.actions.map((a) => ({ ...a, tombstone: a.tombstone.replace(/sha256 \]$/, 'sha256 0123456789ab]') })), '11111111-2222-4333-8444-555555555555');
  const snapshot = analyzeSession(parseLines(fork.lines, path), nodeAnalysisPorts(), { repoRoot, protectTail: 0 });
  return { original, plan, fork, snapshot };
}

describe('tombstone', () => {
  for (const scenario of ['01-superseded-reads', '02-gone-drift-errors', '08-duplicates-and-ranges']) {
    it(`${scenario}: every payload a fork replaced is a tombstone in the fork, never dead, never planned again`, () => {
      const { fork, snapshot } = forkOf(scenario);
      expect(fork.applied.length).toBeGreaterThan(0);
      const replaced = new Set(fork.applied.map((a) => `${a.action.uuid}:${a.action.blockIndex}`));
      const tombstones = snapshot.segments.filter((s) => s.class === 'tombstone');
      expect(new Set(tombstones.map((s) => s.id))).toEqual(replaced);
      for (const t of tombstones) {
        if (t.proof?.class !== 'tombstone') throw new Error('expected tombstone evidence');
        const written = fork.applied.find((a) => `${a.action.uuid}:${a.action.blockIndex}` === t.id)?.action.tombstone ?? '';
        expect(t.proof.sha256Prefix).toBe(tombstoneHash(written) || null);
      }
      const again = planEviction(snapshot, { minimumSavings: 0 });
      for (const a of again.actions) expect(replaced.has(a.segmentId)).toBe(false);
      for (const e of again.excluded) expect(replaced.has(e.segmentId)).toBe(false);
      // What is still dead in the fork is what the original had and the fork did not remove.
      expect(snapshot.segments.filter((s) => isDeadClass(s.class) && replaced.has(s.id))).toEqual([]);
    });
  }

  it('leaves the original untouched: an unforked session has no tombstone', () => {
    const snap = analyzeFile(generatedSession('01-superseded-reads'), { protectTail: 0 });
    expect(snap.segments.filter((s) => s.class === 'tombstone')).toEqual([]);
  });

  it("recognises only Glassbox's own format, whole", () => {
    expect(tombstoneHash('[glassbox: removed a read of a.ts whole file (gone: a.ts no longer exists); sha256 3f2a9c01d4e5]')).toBe('3f2a9c01d4e5');
    expect(tombstoneHash('[glassbox: removed a read of a.ts (gone: a.ts no longer exists); sha256 ]')).toBe('');
    expect(tombstoneHash('[glassbox: removed a read; sha256 3f2a] and then more text')).toBeNull();
    expect(tombstoneHash('cat notes.txt: [glassbox: removed x; sha256 3f2a]')).toBeNull();
    expect(tombstoneHash(`[glassbox: removed ${'x'.repeat(5000)}; sha256 3f2a]`)).toBeNull();
  });
});
