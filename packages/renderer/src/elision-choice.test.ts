import { describe, expect, it } from 'vitest';
import { validateArgs } from '@glassbox/contract';
import { ELISION_OFF, elideArgs } from './elision-choice';

describe("the wizard's elision thresholds", () => {
  it('are off by default, at the measured defaults', () => {
    expect(ELISION_OFF.on).toBe(false);
    expect(elideArgs(ELISION_OFF)).toEqual({ overTokens: 4000, keepChars: 2000, keepLines: 40 });
  });

  it('send the defaults for an empty field and whole numbers within what the host accepts for the rest', () => {
    const typed = elideArgs({ on: true, overTokens: '', keepChars: '-5', keepLines: '12.6' });
    expect(typed).toEqual({ overTokens: 4000, keepChars: 0, keepLines: 13 });
    expect(elideArgs({ on: true, overTokens: '0', keepChars: 'abc', keepLines: '1e9' })).toEqual({ overTokens: 1, keepChars: 2000, keepLines: 100_000 });
    // Whatever is typed, the host's validator takes it.
    for (const t of [typed, elideArgs({ on: true, overTokens: '99999999999', keepChars: '1e12', keepLines: '-1' })]) {
      expect('args' in validateArgs('fork:elision-preview', { path: '/s.jsonl', elide: t })).toBe(true);
    }
  });
});
