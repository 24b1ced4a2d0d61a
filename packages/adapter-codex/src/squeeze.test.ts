import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine, squeeze } from './squeeze';

/** The definition squeeze stands for. */
const byRegex = (text: string, cap: number, scan: number) => text.slice(0, scan).replace(/\s+/g, ' ').trim().slice(0, cap);

const spaces = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
const pieces = fc.array(fc.oneof(fc.constantFrom(...spaces), fc.string({ maxLength: 6 }), fc.constantFrom('é', '🙂', '\u200b', 'x')), { maxLength: 60 }).map((a) => a.join(''));

describe('squeeze', () => {
  it('equals collapsing whitespace with \\s+, trimming and cutting, for any text', () => {
    fc.assert(
      fc.property(pieces, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 120 }), (text, cap, scan) => {
        expect(squeeze(text, cap, scan)).toBe(byRegex(text, cap, scan));
        expect(squeeze(text, cap)).toBe(byRegex(text, cap, text.length));
      }),
      { numRuns: 2000 },
    );
  });

  it('cuts a line with an ellipsis', () => {
    expect(oneLine('  cat   src/cli.mjs\n', 80)).toBe('cat src/cli.mjs');
    expect(oneLine('abcdef ghij', 6)).toBe('abcde…');
  });
});
