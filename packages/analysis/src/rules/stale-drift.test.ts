import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeFile, capturedAt, copyToTemp, generatedSession, projectAfter } from '@glassbox/test-support/analysis/fixtures';

describe('stale-drift', () => {
  const session = generatedSession('02-gone-drift-errors');

  it('proves a read stale when the same lines on disk differ, with hashes and a diff', () => {
    const snap = analyzeFile(session, { repoRoot: projectAfter('02-gone-drift-errors') });
    const drift = snap.segments.filter((s) => s.class === 'stale-drift');
    expect(drift.map((s) => s.source.label)).toEqual(['src/config.json']);
    const proof = drift[0]?.proof;
    if (proof?.class !== 'stale-drift') throw new Error('expected a drift proof');
    expect(proof.capturedHash).not.toBe(proof.currentHash);
    expect(proof.diff).toContain('-  "low_stock_threshold": 3,');
    expect(proof.diff).toContain('+  "low_stock_threshold": 5,');
  });

  it('does not call a file changed and changed back drift', () => {
    const repo = copyToTemp(projectAfter('02-gone-drift-errors'));
    // Put back exactly the bytes the read at line 23 captured.
    writeFileSync(join(repo, 'src', 'config.json'), capturedAt(session, 23));
    const snap = analyzeFile(session, { repoRoot: repo });
    expect(snap.segments.filter((s) => s.class === 'stale-drift')).toEqual([]);
  });

  it('compares only the captured range of a partial read', () => {
    const s3 = generatedSession('03-large-outputs');
    const repo = copyToTemp(projectAfter('03-large-outputs'));
    const catalog = join(repo, 'src', 'catalog.py');
    const lines = readFileSync(catalog, 'utf8').split('\n');
    // Lines 590-601 as the read captured them, and a line far outside the range changed.
    lines.splice(589, 12, ...capturedAt(s3, 38).split('\n'));
    lines[10] = lines[10] + ' # edited elsewhere';
    writeFileSync(catalog, lines.join('\n'));
    const partial = analyzeFile(s3, { repoRoot: repo }).segments.find((s) => s.line === 38 && s.kind === 'tool-result');
    expect(partial?.class).toBe('live');
    // Change a line inside it: now it has drifted.
    lines[594] = lines[594] + ' # edited inside';
    writeFileSync(catalog, lines.join('\n'));
    const drifted = analyzeFile(s3, { repoRoot: repo }).segments.find((s) => s.line === 38 && s.kind === 'tool-result');
    expect(drifted?.class).toBe('stale-drift');
  });
});
