import { describe, expect, it } from 'vitest';
import type { ClassifiedSnapshot } from '@glassbox/core';
import recorded from '../../../fixtures/snapshots/02-gone-drift-errors.json';
import fc from 'fast-check';
import { charMeasure, fitHeader, fitName, projectKey, sessionTitle, splitPathLabel } from './labels';
import { groupRows } from './session-groups';
import { syntheticRows } from '../bench/list-bench-rows';

const snapshotNames = (recorded as unknown as ClassifiedSnapshot).segments
  .filter((s) => s.source.type === 'file')
  .map((s) => splitPathLabel(s.source.label).name);

describe('labels lead with the file name', () => {
  it('POSIX, Windows and attachment paths: the name first, then the folder', () => {
    expect(splitPathLabel('src/ledger/http-client.ts')).toEqual({ name: 'http-client.ts', rest: 'src/ledger/' });
    expect(splitPathLabel('C:\\03_Apps\\repo\\src\\domain\\order.py')).toEqual({ name: 'order.py', rest: 'C:\\03_Apps\\repo\\src\\domain\\' });
    expect(splitPathLabel('c:/Users/me/repo/README.md')).toEqual({ name: 'README.md', rest: 'c:/Users/me/repo/' });
    expect(splitPathLabel('file src/app.ts')).toEqual({ name: 'app.ts', rest: 'file src/' });
    expect(splitPathLabel('memory packages/core/CLAUDE.md')).toEqual({ name: 'CLAUDE.md', rest: 'memory packages/core/' });
    expect(splitPathLabel('README.md')).toEqual({ name: 'README.md', rest: '' });
    expect(splitPathLabel('skill listing')).toEqual({ name: 'skill listing', rest: '' });
  });

  it('every file segment of a real snapshot keeps its whole path across name and folder', () => {
    const snap = recorded as unknown as ClassifiedSnapshot;
    const files = snap.segments.filter((s) => s.source.type === 'file');
    expect(files.length).toBeGreaterThan(0);
    for (const s of files) {
      const { name, rest } = splitPathLabel(s.source.label);
      expect(rest + name).toBe(s.source.label);
      expect(name).not.toContain('/');
    }
  });
});

describe('session titles and project groups', () => {
  it('a title is never a bare id, a flag or a dot', () => {
    for (const bad of [null, '', '   ', '2f1c0a4e-9d3b-4c1e-8f00-1234567890ab', '--history', '-c', '.']) {
      expect(sessionTitle(bad, { project: 'ledger', lastActivity: '2026-11-28T10:00:00Z' })).toMatch(/^Untitled session in ledger \(/);
    }
    expect(sessionTitle('Fix rounding in invoices\nmore', { project: 'ledger' })).toBe('Fix rounding in invoices');
  });

  it('one group per Windows project whatever the case of its drive letter; POSIX paths stay case-sensitive', () => {
    expect(projectKey('C:\\Work\\Repo')).toBe(projectKey('c:\\work\\repo\\'));
    expect(projectKey('C:/Work/Repo')).toBe(projectKey('c:\\Work\\Repo'));
    expect(projectKey('/home/me/Repo')).not.toBe(projectKey('/home/me/repo'));
    const [a, b] = syntheticRows(2);
    const groups = groupRows([
      { ...a!, cwd: 'C:\\03_Apps\\shop' },
      { ...b!, cwd: 'c:\\03_Apps\\shop' },
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.rows).toHaveLength(2);
    expect(groups[0]?.label).toBe('shop');
  });

  it('projects with the same last folder get just enough of their path to tell them apart', () => {
    const [a, b, c] = syntheticRows(3);
    const groups = groupRows([
      { ...a!, cwd: '/home/me/work/api' },
      { ...b!, cwd: '/home/me/play/api' },
      { ...c!, cwd: '/home/me/web' },
    ]);
    expect(groups.map((g) => g.label).sort()).toEqual(['play/api', 'web', 'work/api']);
  });
});

describe('fitName', () => {
  it('keeps a name that fits whole, and cuts a wider one from its end, keeping its start', () => {
    expect(fitName('catalog.py', charMeasure('catalog.py'))).toBe('catalog.py');
    const cut = fitName('repository_context.py', charMeasure('x'.repeat(15)));
    expect(cut).toBe('repository_con…');
    expect(fitName('README', charMeasure('RE'))).toBe('R…');
    expect(fitName('README', 0)).toBe('R…');
  });
  it('shows every file name of a real session whole when the tile is as wide as the name', () => {
    for (const name of snapshotNames) expect(fitName(name, charMeasure(name))).toBe(name);
  });
  it('never cuts inside a name that fits, and a cut is always a start of the name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 600 }), (name, width) => {
        const shown = fitName(name, width);
        if (charMeasure(name) <= width) return shown === name;
        return shown.endsWith('…') && name.startsWith(shown.slice(0, -1)) && shown.length >= 2;
      }),
    );
  });
});

describe('fitHeader', () => {
  it('drops the count first, then cuts the label but keeps its class word', () => {
    const label = 'stale · superseded';
    expect(fitHeader(label, '2.6k', 1000)).toEqual({ label, count: '2.6k' });
    expect(fitHeader(label, '2.6k', charMeasure(label))).toEqual({ label, count: null });
    const narrow = fitHeader(label, '2.6k', charMeasure('stale · su…'));
    expect(narrow).toEqual({ label: 'stale · su…', count: null });
    expect(fitHeader(label, '2.6k', charMeasure('stale ·'))).toEqual({ label: 'stale…', count: null });
    expect(fitHeader(label, '2.6k', charMeasure('st…')).label).toBe('st…');
  });
});
