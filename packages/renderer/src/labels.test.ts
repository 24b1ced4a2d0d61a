import { describe, expect, it } from 'vitest';
import type { ClassifiedSnapshot } from '@glassbox/core';
import recorded from '../../../fixtures/snapshots/02-gone-drift-errors.json';
import { fitName, labelChars, projectKey, sessionTitle, splitPathLabel } from './labels';
import { groupRows } from './session-groups';
import { syntheticRows } from '../bench/list-bench-rows';

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
  it('keeps a name that fits, and cuts a long one from the middle so its start and extension stay', () => {
    expect(fitName('catalog.py', 12)).toBe('catalog.py');
    const cut = fitName('build-ultra-long-module-name.test.ts', 14);
    expect(cut).toHaveLength(14);
    expect(cut.startsWith('build-')).toBe(true);
    expect(cut.endsWith('.ts')).toBe(true);
    expect(cut).toContain('…');
    expect(fitName('README', 3)).toBe('REA');
  });
  it('fits about one character per 8.2 px of tile', () => {
    expect(labelChars(40)).toBe(3);
    expect(labelChars(5)).toBe(0);
  });
});
