import { join } from 'node:path';
import { analyzeSession, planEviction } from '@glassbox/analysis';
import { fixturePorts } from '@glassbox/test-support/ports';
import { describe, expect, it } from 'vitest';
import { readRolloutFile } from '../node/read-file';
import { CODEX_CORPUS, firstRollout, linesOf } from '@glassbox/test-support/codex/corpus';
import { buildCodexFork } from './apply';
import { uuidV7 } from './ids';
import { validateCodexFork } from './validate';

const ports = fixturePorts('2026-12-01');

describe('the unchanged analysis on a Codex session, then its plan as a fork (02)', () => {
  const name = '02-duplicates-deletes-errors';
  const path = firstRollout(name);
  const session = readRolloutFile(path);
  const snapshot = analyzeSession(session, ports, { repoRoot: join(CODEX_CORPUS, name, 'project-after'), protectTail: 1 });
  const label = (cls: string) => snapshot.segments.filter((s) => s.class === cls && s.kind === 'tool-result').map((s) => s.source.label);

  it('proves gone, drift, superseded and duplicate outputs of pure reads and repeated commands', () => {
    expect(label('gone')).toEqual(['cat src/legacy-date.mjs', 'head -n 12 docs/MIGRATION-0.2.md']);
    expect(label('stale-drift')).toEqual(["sed -n '1,20p' src/store.mjs", 'cat docs/NOTES.md']);
    expect(label('stale-superseded')).toEqual(['cat docs/NOTES.md', 'cat docs/NOTES.md']);
    expect(label('duplicate')).toEqual(['rm src/legacy-date.mjs && git status --short', 'node test/run.mjs']);
    // errors (failing tests, a cat of a missing file, a failing lint, each run twice) are never dead
    const errors = snapshot.segments.filter((s) => s.isError);
    expect(errors.map((s) => s.source.label)).toEqual(['node test/run.mjs', 'node test/run.mjs', 'cat src/date-helpers.mjs', 'cat src/date-helpers.mjs', 'node scripts/lint.mjs', 'node scripts/lint.mjs']);
    expect(errors.every((s) => s.kind === 'tool-result' && s.class === 'live')).toBe(true);
  });

  it('forks the plan and the fork validates', () => {
    const plan = planEviction(snapshot);
    expect(plan.actions.length).toBeGreaterThan(0);
    expect(plan.actions.every((a) => a.target === 'tool-result')).toBe(true);
    const lines = linesOf(path);
    const r = buildCodexFork(lines, plan.actions, uuidV7(0, new Uint8Array(10)));
    // The plan sizes tombstones in estimated tokens; the fork checks bytes and refuses the one
    // whose tombstone is longer than the 158-byte output it would replace.
    expect(r.refused.map((x) => [x.action.line, x.code])).toEqual([[82, 'not_smaller']]);
    expect(r.applied.length).toBe(plan.actions.length - 1);
    const v = validateCodexFork(lines, r.lines!, { plannedLines: r.applied.map((a) => a.line) });
    expect(v.ok).toBe(true);
  });
});
