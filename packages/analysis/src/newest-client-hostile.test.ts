// A session the real Claude Code 2.1.332 wrote (fixtures/corpus/hostile/20-newest-client-hostile):
// a file whose name holds accents, a check mark and Hebrew, written with escapes, a bell and a
// zero-width space, read, then deleted and restored byte for byte (the client reports it "modified");
// an output shaped exactly like a Glassbox tombstone; a partial read covered by a whole read; a big
// output run twice, which the client saves to two files; a file changed on disk by Bash.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDeadClass, type Segment } from '@glassbox/core';
import { FIXTURES, analyzeFile, classOf } from '@glassbox/test-support/analysis/fixtures';

const DIR = join(FIXTURES, 'hostile', '20-newest-client-hostile');
const MANIFEST = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { session_ids: string[] };
const SESSION = join(DIR, 'claude-project', `${MANIFEST.session_ids[0] ?? ''}.jsonl`);
const NOTES = 'docs/naïve résumé ✓ עברית.md';

describe('a session of the newest client on hostile names and text', () => {
  const snap = analyzeFile(SESSION, { repoRoot: join(DIR, 'project-after'), protectTail: 0 });
  const results = snap.segments.filter((s) => s.kind === 'tool-result');
  const lineOf = (pred: (s: Segment) => boolean): number => results.find(pred)?.line ?? -1;

  it('keeps the read of a file deleted and restored byte for byte live, whatever its name holds', () => {
    const read = results.filter((s) => s.opKind === 'read' && s.source.label === NOTES);
    expect(read).toHaveLength(1);
    expect(read[0]?.class).toBe('live');
    expect(results.some((s) => s.class === 'gone')).toBe(false);
  });

  it('calls the partial read superseded by the whole read, and the whole read stale once Bash changed the file', () => {
    const reads = results.filter((s) => s.opKind === 'read' && s.source.label === 'src/report.py');
    expect(reads.map((s) => s.class)).toEqual(['stale-superseded', 'stale-drift']);
    expect(reads[0]?.proof).toMatchObject({ class: 'stale-superseded', by: { kind: 'read', line: reads[1]?.line } });
  });

  it('never plans an output shaped like a tombstone for removal', () => {
    const line = lineOf((s) => s.preview.startsWith('[glassbox: removed tool output (superseded)'));
    expect(line).toBeGreaterThan(0);
    expect(isDeadClass(classOf(snap, line) as never)).toBe(false);
    expect(snap.segments.filter((s) => s.line === line).every((s) => !isDeadClass(s.class))).toBe(true);
  });

  it('does not call two big outputs copies when the client saved each to its own file', () => {
    const persisted = results.filter((s) => s.preview.startsWith('<persisted-output>'));
    expect(persisted).toHaveLength(2);
    expect(persisted.map((s) => s.class)).toEqual(['live', 'live']);
    expect(persisted[0]?.hash).not.toBe(persisted[1]?.hash);
  });
});
