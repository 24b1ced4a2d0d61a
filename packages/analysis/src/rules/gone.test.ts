import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeFile, copyToTemp, generatedSession, projectAfter } from '@glassbox/test-support/analysis/fixtures';

describe('gone', () => {
  const session = generatedSession('02-gone-drift-errors');

  it('proves a read of a deleted file gone when the working directory exists', () => {
    const snap = analyzeFile(session, { repoRoot: projectAfter('02-gone-drift-errors') });
    const gone = snap.segments.filter((s) => s.class === 'gone');
    expect(gone.map((s) => s.source.label)).toEqual(['docs/NOTES.md']);
    const proof = gone[0]?.proof;
    if (proof?.class !== 'gone') throw new Error('expected a gone proof');
    expect(proof.cwdExists).toBe(true);
    expect(proof.checkedPath).toBe(join(projectAfter('02-gone-drift-errors'), 'docs/NOTES.md'));
    expect(Date.parse(proof.checkedAt)).not.toBeNaN();
  });

  it('proves nothing gone or drifted when the working directory is not on this machine', () => {
    const snap = analyzeFile(session);
    expect(snap.session.repoExists).toBe(false);
    expect(snap.segments.filter((s) => s.class === 'gone' || s.class === 'stale-drift')).toEqual([]);
    expect(snap.problems.some((p) => p.code === 'repo_missing')).toBe(true);
  });

  it('does not call a file gone when it exists again', () => {
    const repo = copyToTemp(projectAfter('02-gone-drift-errors'));
    cpSync(join(projectAfter('02-gone-drift-errors'), 'README.md'), join(repo, 'docs-notes-placeholder'));
    writeFileSync(join(repo, 'src', 'NOTES-unrelated.md'), 'x');
    // Re-create the deleted file: the read is no longer provably gone.
    cpSync(join(repo, 'README.md'), join(repo, 'docs', 'NOTES.md'), { force: true });
    const snap = analyzeFile(session, { repoRoot: repo });
    expect(snap.segments.filter((s) => s.class === 'gone')).toEqual([]);
  });
});
