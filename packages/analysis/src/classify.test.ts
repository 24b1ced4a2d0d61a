import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClassifiedSnapshot, Segment } from '@glassbox/core';
import { planEviction } from './plan';
import { analyzeFile, copyToTemp, generatedSession, projectAfter, variantOf } from './test-support/fixtures';

const byLine = (snap: ClassifiedSnapshot, line: number): Segment[] => snap.segments.filter((s) => s.line === line);
const results = (snap: ClassifiedSnapshot): Segment[] => snap.segments.filter((s) => s.kind === 'tool-result');
/** The raw text a Read captured, from the record's structured mirror. */
function capturedAt(path: string, line: number): string {
  const record = JSON.parse(readFileSync(path, 'utf8').split('\n')[line - 1] ?? '{}') as { toolUseResult: { file: { content: string } } };
  return record.toolUseResult.file.content;
}
const classOf = (snap: ClassifiedSnapshot, line: number): string | undefined => byLine(snap, line).find((s) => s.kind === 'tool-result')?.class;

describe('gone', () => {
  const session = generatedSession('02-gone-drift-errors');

  it('proves a read of a deleted file gone when the working directory exists', () => {
    const snap = analyzeFile(session, { repoRoot: projectAfter('02-gone-drift-errors') });
    const gone = snap.segments.filter((s) => s.class === 'gone');
    expect(gone.map((s) => s.source.label)).toEqual(['docs/NOTES.md']);
    const proof = gone[0]?.proof;
    expect(proof?.class).toBe('gone');
    if (proof?.class === 'gone') {
      expect(proof.cwdExists).toBe(true);
      expect(proof.checkedPath).toBe(join(projectAfter('02-gone-drift-errors'), 'docs/NOTES.md'));
      expect(Date.parse(proof.checkedAt)).not.toBeNaN();
    }
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

describe('stale-superseded', () => {
  const session = generatedSession('01-superseded-reads');
  const snap = analyzeFile(session, { repoRoot: projectAfter('01-superseded-reads') });

  it('marks older full reads of a file covered by a later full read, naming the later read', () => {
    expect(classOf(snap, 14)).toBe('stale-superseded');
    expect(classOf(snap, 28)).toBe('stale-superseded');
    const proof = byLine(snap, 14)[0]?.proof;
    if (proof?.class !== 'stale-superseded') throw new Error('expected a superseded proof');
    expect(proof.by.kind).toBe('read');
    expect(proof.by.line).toBe(44);
    expect(proof.range).toEqual({ startLine: 1, endLine: 40, full: true });
  });

  it('never lets a partial read supersede a read of another range, nor a later read be superseded by an earlier one', () => {
    // Line 47 is a partial read (lines 1-30) after the full read at 44: neither supersedes the other.
    expect(classOf(snap, 44)).toBe('live');
    expect(classOf(snap, 47)).toBe('live');
  });

  it('treats an Edit as a change, not a read: the edit input is superseded only by a later full read', () => {
    const edit = byLine(snap, 38).find((s) => s.kind === 'tool-input');
    expect(edit?.class).toBe('stale-superseded');
    expect(edit?.evictableTokens).toBeLessThan(edit?.tokens ?? 0);
    // The unchanged re-read (file_unchanged) carries no content and proves nothing.
    expect(classOf(snap, 32)).toBe('live');
  });
});

describe('duplicate', () => {
  const session = generatedSession('01-superseded-reads');

  it('marks earlier byte-identical outputs duplicate and keeps the latest', () => {
    const snap = analyzeFile(session);
    const dups = results(snap).filter((s) => s.class === 'duplicate');
    expect(dups.map((s) => s.line)).toEqual([25, 36]);
    for (const d of dups) {
      if (d.proof?.class !== 'duplicate') throw new Error('expected a duplicate proof');
      expect(d.proof.kept.line).toBe(40);
      expect(d.proof.hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('does not call outputs that differ by one byte duplicates', () => {
    const variant = variantOf(session, (lines) => {
      // The kept copy (line 40) gets one byte changed; line 25 and 36 stay identical to each other.
      lines[39] = (lines[39] ?? '').replace('has been updated successfully', 'has been updated successfullY');
      return lines;
    });
    const snap = analyzeFile(variant);
    const line40 = results(snap).find((s) => s.line === 40);
    expect(line40?.class).toBe('live');
    const line25 = results(snap).find((s) => s.line === 25);
    if (line25?.proof?.class !== 'duplicate') throw new Error('expected a duplicate proof');
    expect(line25.proof.kept.line).toBe(36);
  });
});

describe('never evicted', () => {
  it('keeps error results, prose, thinking and the compaction summary live and protected', () => {
    const snap = analyzeFile(generatedSession('02-gone-drift-errors'), {
      repoRoot: projectAfter('02-gone-drift-errors'),
      withSpent: true,
      protectTail: 0,
    });
    const errors = snap.segments.filter((s) => s.isError);
    expect(errors.length).toBeGreaterThanOrEqual(5);
    for (const e of errors) {
      expect(e.class).toBe('live');
      expect(e.protected).toBe(true);
    }
    const compacted = analyzeFile(generatedSession('04-subagent-compact-multiturn'), { protectTail: 0 });
    const summary = compacted.segments.find((s) => s.kind === 'compact-summary');
    expect(summary?.protected).toBe(true);
    for (const s of compacted.segments.filter((x) => x.kind === 'thinking' || x.kind === 'assistant-text' || x.kind === 'prompt')) {
      expect(s.class).toBe('live');
    }
  });

  it('marks spent only when asked, always as inferred', () => {
    const plain = analyzeFile(generatedSession('03-large-outputs'), { protectTail: 0 });
    expect(plain.segments.some((s) => s.class === 'spent')).toBe(false);
    const spent = analyzeFile(generatedSession('03-large-outputs'), { protectTail: 0, withSpent: true });
    const marked = spent.segments.filter((s) => s.class === 'spent');
    expect(marked.length).toBeGreaterThan(0);
    for (const s of marked) expect(s.proof).toMatchObject({ class: 'spent', inferred: true });
    expect(spent.classes.inferred).toEqual(['spent']);
  });

  it('protects the last exchanges from the plan', () => {
    const snap = analyzeFile(generatedSession('01-superseded-reads'), { protectTail: 1000 });
    const plan = planEviction(snap);
    expect(plan.actions).toEqual([]);
    expect(plan.reasons.map((r) => r.code)).toContain('all_protected');
  });
});

describe('tombstone text', () => {
  it('names what was removed: a read with its range, or another tool\'s result', async () => {
    const { planEviction: plan } = await import('./plan');
    const snap = analyzeFile(generatedSession('01-superseded-reads'), { protectTail: 0 });
    const actions = plan(snap, { minimumSavings: 0 }).actions;
    const read = actions.find((a) => a.line === 14);
    expect(read?.tombstone).toMatch(/^\[glassbox: removed a read of src\/inventory\.py whole file \(stale-superseded: the later read on line 44/);
    const edit = actions.find((a) => a.line === 25);
    expect(edit?.tombstone).toContain('removed the Edit result for src/inventory.py (duplicate: an identical copy is kept on line 40)');
  });
});

describe('a session written to test duplicates and ranges (08)', () => {
  const session = generatedSession('08-duplicates-and-ranges');
  const snap = analyzeFile(session, { repoRoot: projectAfter('08-duplicates-and-ranges') });
  const bash = results(snap).filter((s) => s.source.type === 'command' && s.tokens > 500);

  it('tombstones the earlier of two identical large outputs, and keeps the one that differs by a byte', () => {
    expect(bash).toHaveLength(3);
    const [first, second, third] = bash;
    expect(first?.class).toBe('duplicate');
    if (first?.proof?.class !== 'duplicate') throw new Error('expected a duplicate proof');
    expect(first.proof.kept.segmentId).toBe(second?.id);
    expect(second?.class).toBe('live');
    expect(third?.class).toBe('live');
    expect(planEviction(snap).actions.map((a) => a.segmentId)).toEqual([first.id]);
  });

  it('does not call a file changed and changed back (by the session itself) drift', () => {
    const config = results(snap).find((s) => s.source.label === 'src/config.json');
    expect(config?.class).toBe('live');
  });

  it('keeps two partial reads of different ranges of one file', () => {
    const reads = results(snap).filter((s) => s.source.label === 'src/inventory.py');
    expect(reads).toHaveLength(2);
    for (const r of reads) expect(r.class).toBe('live');
  });
});
