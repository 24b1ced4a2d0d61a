import { describe, expect, it } from 'vitest';
import { pathList } from './path-list';

describe('an agent home variable read as folders', () => {
  it('splits on commas, expands ~, keeps each folder once in order, and is null when unset', () => {
    expect(pathList(' ~/a , /b,~,/b,, ', '/home/u')).toEqual(['/home/u/a', '/b', '/home/u']);
    expect(pathList(undefined, '/home/u')).toBeNull();
    expect(pathList('  ', '/home/u')).toBeNull();
  });
});
