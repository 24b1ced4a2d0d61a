// The same proofs on Gemini CLI sessions: the unchanged analysis, fed the adapter's session and the
// project as the run left it (project-after/, standing in for the recorded cwd), finds what the
// scenario made dead — a read file deleted (gone), a read file changed outside (stale-drift), a
// partial read covered by a later read (stale-superseded), a command output repeated (duplicate).
import { analyzeSession } from '@glassbox/analysis';
import type { Segment } from '@glassbox/core';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChatLines } from './parse-lines';
import { fixture, linesOf, mainChat } from '@glassbox/test-support/gemini/corpus';
import { fixturePorts } from '@glassbox/test-support/ports';

const testPorts = fixturePorts('2026-12-02');

function classified(version: string): Segment[] {
  const f = fixture('01-reads-edits-gone', version);
  const path = mainChat(f);
  const s = parseChatLines(linesOf(path), { path });
  expect(s.cwd).toBe(f.manifest.cwd);
  return analyzeSession(s, testPorts, { repoRoot: join(f.dir, 'project-after') }).segments;
}

const dead = (segs: Segment[], cls: string, label: string) => segs.filter((s) => s.class === cls && s.source.label === label);

describe.each(['0.61', '0.38', '0.28'])('01-reads-edits-gone v%s', (version) => {
  const segs = classified(version);

  it('the notes file read before `rm` is gone, with the path checked', () => {
    const gone = dead(segs, 'gone', 'docs/NOTES.md').filter((s) => !s.isError);
    expect(gone.length).toBeGreaterThan(0);
    for (const g of gone) expect(g.proof).toMatchObject({ class: 'gone', cwdExists: true });
  });

  it('the config read before the outside edit (EUR → USD) has drifted, with the diff', () => {
    const drift = dead(segs, 'stale-drift', 'src/config.json');
    expect(drift.length).toBeGreaterThan(0);
    const proof = drift[0]?.proof as { diff?: unknown; capturedHash?: string; currentHash?: string };
    expect(proof.capturedHash).not.toBe(proof.currentHash);
    expect(JSON.stringify(proof.diff)).toContain('USD');
  });

  it('the first five lines of report.py are covered by the later whole read', () => {
    const sup = segs.filter((s) => s.class === 'stale-superseded' && s.source.label === 'src/report.py' && (s.proof as { range?: { full: boolean } }).range?.full === false);
    expect(sup.length).toBeGreaterThan(0);
  });

  it('the 40 stock rows printed twice: the earlier copy is a duplicate of the later', () => {
    const dup = dead(segs, 'duplicate', 'head -40 data/stock.csv');
    expect(dup.length).toBeGreaterThan(0);
    expect(dup[0]?.proof).toMatchObject({ class: 'duplicate', bytes: expect.any(Number) });
  });

  it('errors are never dead', () => {
    expect(segs.filter((s) => s.isError && s.class !== 'live')).toEqual([]);
  });
});

it('0.61 sends each result twice: every output big enough to hash has a live copy and a dead twin', () => {
  const segs = classified('0.61');
  const big = segs.filter((s) => s.kind === 'tool-result' && s.source.label === 'seq 1 9000');
  expect(big.map((s) => s.class).sort()).toEqual(['duplicate', 'live']);
});
