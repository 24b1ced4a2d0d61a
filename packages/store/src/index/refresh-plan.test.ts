import { describe, expect, it } from 'vitest';
import { planRefresh, type SeenFile } from './refresh-plan';
import type { Fingerprint } from '../shared/scan';
import { Stage, type StageLevel } from './stage';
import type { FileKey } from './statements';

function key(path: string, fp: Fingerprint, level: StageLevel, id = 1): FileKey {
  return {
    id, agent: 'claude-code', path, root: '/r', origin: 'discovered', kind: 'session', parent_path: null, agent_id: null, session_id: 's', project: 'p',
    dev: fp.dev, ino: fp.ino, size: fp.size, mtime_ms: fp.mtimeMs, level,
  };
}

const fp = (ino: number, size: number, mtimeMs = 1000, dev = 7): Fingerprint => ({ dev, ino, size, mtimeMs });
const seen = (path: string, f: Fingerprint): SeenFile<string> => ({ path, file: path, fp: f });

describe('planRefresh', () => {
  it('new, unchanged, appended, rewritten and gone, from fingerprints and stored stages alone', () => {
    const stored = [
      key('/r/same', fp(1, 100), Stage.summarised, 1),
      key('/r/grown', fp(2, 100), Stage.summarised, 2),
      key('/r/touched', fp(3, 100, 1000), Stage.summarised, 3),
      key('/r/shrunk', fp(4, 100), Stage.summarised, 4),
      key('/r/replaced', fp(5, 100), Stage.summarised, 5),
      key('/r/other-device', fp(6, 100, 1000, 7), Stage.summarised, 6),
      key('/r/listed-only', fp(7, 100), Stage.listed, 7),
      key('/r/unreadable', fp(0, 0, 0, 0), Stage.unreadable, 8),
      key('/r/deleted', fp(9, 100), Stage.summarised, 9),
    ];
    const plan = planRefresh(
      [
        seen('/r/same', fp(1, 100)),
        seen('/r/grown', fp(2, 150, 2000)),
        seen('/r/touched', fp(3, 100, 2000)),
        seen('/r/shrunk', fp(4, 50, 2000)),
        seen('/r/replaced', fp(55, 100)),
        seen('/r/other-device', fp(6, 100, 1000, 8)),
        seen('/r/listed-only', fp(7, 100)),
        seen('/r/unreadable', fp(10, 100)),
        seen('/r/brand-new', fp(11, 100)),
      ],
      stored,
    );
    expect(Object.fromEntries(plan.files.map((f) => [f.path, f.action]))).toEqual({
      '/r/same': 'unchanged',
      '/r/grown': 'appended',
      // Same size, new mtime: resumed from the checkpoint, whose anchor check catches an in-place rewrite.
      '/r/touched': 'appended',
      '/r/shrunk': 'rewritten',
      '/r/replaced': 'rewritten',
      '/r/other-device': 'rewritten',
      '/r/listed-only': 'rewritten',
      '/r/unreadable': 'new',
      '/r/brand-new': 'new',
    });
    expect(plan.gone.map((g) => g.path)).toEqual(['/r/deleted']);
    expect(plan.files.find((f) => f.path === '/r/grown')?.stored?.id).toBe(2);
  });

  it('keeps a file reached by two paths once, under the first; the second path’s row is gone', () => {
    const plan = planRefresh([seen('/a/x', fp(1, 10)), seen('/b/x', fp(1, 10)), seen('/c/y', fp(0, 0, 0, 0)), seen('/d/z', fp(0, 0, 0, 0))], [key('/b/x', fp(1, 10), Stage.summarised)]);
    expect(plan.files.map((f) => f.path)).toEqual(['/a/x', '/c/y', '/d/z']);
    expect(plan.gone.map((g) => g.path)).toEqual(['/b/x']);
  });

  it('a partial refresh (some paths) judges only the rows it was given', () => {
    const plan = planRefresh([seen('/r/a', fp(1, 10))], [key('/r/a', fp(1, 10), Stage.summarised)]);
    expect(plan.files.map((f) => f.action)).toEqual(['unchanged']);
    expect(plan.gone).toEqual([]);
  });
});
