import { describe, expect, it } from 'vitest';
import { absolutePath, mapPath } from './paths';
import { comparableText } from './classify';

describe('paths recorded in sessions', () => {
  it('maps paths inside the working directory to the repo root, and refuses others', () => {
    expect(mapPath('/work/proj/src/a.ts', '/work/proj', '/moved/proj')).toBe('/moved/proj/src/a.ts');
    expect(mapPath('/etc/hosts', '/work/proj', '/moved/proj')).toBeNull();
    expect(mapPath('/work/project-b/a.ts', '/work/proj', '/moved/proj')).toBeNull();
  });

  it('maps Windows paths from another machine with forward slashes', () => {
    expect(mapPath('C:\\Users\\ann\\proj\\src\\a.ts', 'C:\\Users\\ann\\proj', '/here/proj')).toBe('/here/proj/src/a.ts');
  });

  it('takes relative paths from the working directory, and proves nothing without one', () => {
    expect(absolutePath('src/a.ts', '/work/proj')).toBe('/work/proj/src/a.ts');
    expect(absolutePath('./src/a.ts', '/work/proj')).toBe('/work/proj/src/a.ts');
    expect(absolutePath('src/a.ts', null)).toBeNull();
    expect(mapPath('src/a.ts', '/work/proj', '/here')).toBe('/here/src/a.ts');
  });
});

describe('comparing disk text with a capture', () => {
  it('ignores Windows line endings and a byte-order mark the capture does not have', () => {
    expect(comparableText('\uFEFFa\r\nb\r\n', 'a\nb\n')).toBe('a\nb\n');
    expect(comparableText('a\r\nb', 'a\r\nb')).toBe('a\r\nb');
  });

  it('proves nothing from bytes that are not UTF-8', () => {
    expect(comparableText('caf\uFFFD', 'café')).toBeNull();
  });
});
