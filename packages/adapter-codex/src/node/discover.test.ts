import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_CORPUS, MOONMIND_058, scenarioRollouts } from '@glassbox/test-support/codex/corpus';
import { codexHomes, findRolloutById, listRolloutFiles } from './discover';

describe('Codex homes', () => {
  it('defaults to ~/.codex', () => {
    expect(codexHomes({}, '/home/a')).toEqual(['/home/a/.codex']);
    expect(codexHomes({ CODEX_HOME: '  ' }, '/home/a')).toEqual(['/home/a/.codex']);
  });

  it('takes CODEX_HOME as one path or a comma list, with ~ expanded and repeats dropped', () => {
    expect(codexHomes({ CODEX_HOME: '/x/codex' }, '/home/a')).toEqual(['/x/codex']);
    expect(codexHomes({ CODEX_HOME: '/x, ~/work/.codex ,/x,' }, '/home/a')).toEqual(['/x', '/home/a/work/.codex']);
  });
});

describe('rollout files', () => {
  it('finds the sessions tree of a real Codex home (04: the session and its exec fork)', () => {
    const home = join(CODEX_CORPUS, '04-read-grammar-and-fork');
    const found = listRolloutFiles([home]);
    expect(found.map((f) => f.path).sort()).toEqual(scenarioRollouts('04-read-grammar-and-fork'));
    expect(found.every((f) => !f.archived && !f.compressed && f.home === home)).toBe(true);
    expect(findRolloutById([home], '01a22f8e-b2aa-7e20-a3df-6d9954840ae8').map((f) => basename(f.path))).toEqual([
      'rollout-2026-12-01T03-03-30-01a22f8e-b2aa-7e20-a3df-6d9954840ae8.jsonl',
    ]);
  });

  it('finds archived sessions, lists a compressed rollout once, skips other files and missing homes', () => {
    const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
    mkdirSync(join(home, 'archived_sessions'), { recursive: true });
    mkdirSync(join(home, 'sessions/2025/11/13'), { recursive: true });
    copyFileSync(MOONMIND_058, join(home, 'archived_sessions', basename(MOONMIND_058)));
    const live = join(home, 'sessions/2025/11/13', basename(MOONMIND_058).replace('019a802a', '019a802b'));
    copyFileSync(MOONMIND_058, live);
    writeFileSync(live + '.zst', 'not really zstd');
    writeFileSync(join(home, 'sessions/2025/11/13/notes.jsonl'), '{}\n');
    const cold = join(home, 'sessions/2025/11/13', basename(MOONMIND_058).replace('019a802a', '019a802c') + '.zst');
    writeFileSync(cold, 'x');
    const found = listRolloutFiles([home, join(home, 'missing')]);
    expect(found.map((f) => [basename(f.path), f.archived, f.compressed]).sort()).toEqual(
      [
        [basename(MOONMIND_058), true, false],
        [basename(live), false, false],
        [basename(cold), false, true],
      ].sort(),
    );
  });
});
