import { describe, expect, it } from 'vitest';
import { humanBytes, humanTokens, percent } from './format';

describe('human figures', () => {
  it('tokens', () => {
    expect(humanTokens(0)).toBe('0');
    expect(humanTokens(999)).toBe('999');
    expect(humanTokens(1234)).toBe('1.23k');
    expect(humanTokens(146_500)).toBe('146.5k');
    expect(humanTokens(2_500_000)).toBe('2.50M');
    expect(humanTokens(-1500)).toBe('-1.50k');
  });

  it('bytes', () => {
    expect(humanBytes(512)).toBe('512 B');
    expect(humanBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(humanBytes(2.5 * 1024 ** 3)).toBe('2.50 GB');
  });

  it('percent', () => {
    expect(percent(1, 3)).toBe('33%');
    expect(percent(5, 0)).toBe('0%');
  });
});
