import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elidedMiddle, elidedText, elisionProblem, formatElisionMarker, parseElided, parseElisionMarker, splitForElision } from './elision';

const sha = (t: string): string => createHash('sha256').update(t, 'utf8').digest('hex');

/** Lines of any Unicode (astral characters included), joined by newlines, sometimes with a final one. */
const payload = fc
  .tuple(fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '\t', '字', 'x', '\r'), maxLength: 120, size: 'large' }), { maxLength: 300, size: 'large' }), fc.boolean())
  .map(([lines, finalNewline]) => lines.join('\n') + (finalNewline ? '\n' : ''));
const keep = fc.record({ chars: fc.integer({ min: 0, max: 3000 }), lines: fc.integer({ min: 0, max: 60 }) });

describe('elision format', () => {
  it('head + middle + tail is the original, and no cut splits a line or a character', () => {
    let splits = 0;
    fc.assert(
      fc.property(payload, keep, (text, k) => {
        const s = splitForElision(text, k);
        if (!s) return;
        splits++;
        expect(s.head + s.middle + s.tail).toBe(text);
        expect(s.head === '' || s.head.endsWith('\n')).toBe(true);
        expect(s.tail === '' || text.charAt(text.length - s.tail.length - 1) === '\n').toBe(true);
        expect(s.head.length).toBeLessThanOrEqual(k.chars);
        expect(s.tail.length).toBeLessThanOrEqual(k.chars);
        // Both ends decode as they were: a cut inside a surrogate pair would leave a lone half.
        for (const part of [s.head, s.middle, s.tail]) expect(part).toBe(Buffer.from(part, 'utf8').toString('utf8'));
      }),
      { numRuns: 400 },
    );
    // The property said something: most generated payloads are long enough to elide.
    expect(splits).toBeGreaterThan(100);
  });

  it('the elided text parses back to its head, tail and the hash of the middle', () => {
    fc.assert(
      fc.property(payload, keep, (text, k) => {
        const s = splitForElision(text, k);
        if (!s) return;
        const out = elidedText(s, sha(s.middle));
        const readings = parseElided(out);
        expect(readings.length).toBeGreaterThanOrEqual(1);
        expect(readings[0]?.head).toBe(s.head);
        expect(readings[0]?.tail).toBe(s.tail);
        expect(sha(s.middle).startsWith(readings[0]?.marker.sha256Prefix ?? 'x')).toBe(true);
        expect(elisionProblem(text, out, sha)).toBeNull();
        expect(elidedMiddle(text, out, sha)?.middle).toBe(s.middle);
      }),
      { numRuns: 400 },
    );
  });

  it('names what is wrong with an elision that is not faithful', () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} of a long build log`).join('\n');
    const s = splitForElision(text, { chars: 300, lines: 5 });
    if (!s) throw new Error('expected a split');
    const good = elidedText(s, sha(s.middle));
    expect(elisionProblem(text, good.replace('line 0', 'line X'), sha)).toMatch(/head/);
    expect(elisionProblem(text, good.replace('line 199', 'line Y'), sha)).toMatch(/tail/);
    expect(elisionProblem(text, elidedText(s, sha('something else')), sha)).toMatch(/hash/);
    expect(elisionProblem(text, 'no marker here', sha)).toMatch(/marker/);
  });

  it('formats the marker as documented and reads it back', () => {
    const marker = formatElisionMarker(1234, 48_123, 'ab'.repeat(32));
    expect(marker).toBe('[… 1,234 lines (48.1k chars) elided by glassbox — recall abababababab …]');
    expect(parseElisionMarker(marker)).toEqual({ lines: 1234, charsShown: '48.1k', sha256Prefix: 'abababababab' });
    expect(parseElisionMarker(`${marker} `)).toBeNull();
  });

  it('leaves a text without enough of a middle alone', () => {
    expect(splitForElision('short\ntext\n', { chars: 2000, lines: 40 })).toBeNull();
    // One huge line: nothing can be kept without splitting it, so all of it is the middle.
    const one = 'x'.repeat(5000);
    expect(splitForElision(one, { chars: 2000, lines: 40 })).toMatchObject({ head: '', tail: '', middle: one, middleLines: 1 });
  });
});
