import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LineBytes } from './output';

/** What LineBytes must give: the lines joined by newlines, a splice applied to its original's bytes. */
function expected(lines: { original: string; line: string | { start: number; end: number; insert: string } }[], finalNewline: boolean): Buffer {
  const parts = lines.map(({ original, line }) => {
    if (typeof line === 'string') return Buffer.from(line, 'utf8');
    const o = Buffer.from(original, 'utf8');
    return Buffer.concat([o.subarray(0, line.start), Buffer.from(line.insert, 'latin1'), o.subarray(line.end)]);
  });
  const joined = Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from('\n'), p])));
  return finalNewline ? Buffer.concat([joined, Buffer.from('\n')]) : joined;
}

describe('LineBytes assembles a fork line by line', () => {
  it('gives the joined bytes, and each line as it will be written, whatever the buffer size (lines longer than it too)', () => {
    const line = fc.record({
      original: fc.string({ unit: 'grapheme', maxLength: 60 }),
      asText: fc.boolean(),
      text: fc.string({ unit: 'grapheme', maxLength: 60 }),
      cut: fc.tuple(fc.nat(), fc.nat()),
      insert: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 64 }), fc.boolean(), (specs, size, finalNewline) => {
        const chunks: Buffer[] = [];
        const out = new LineBytes((b) => chunks.push(Buffer.from(b)), size);
        const lines = specs.map((s) => {
          const bytes = Buffer.from(s.original, 'utf8');
          const [a, b] = [s.cut[0] % (bytes.length + 1), s.cut[1] % (bytes.length + 1)].sort((x, y) => x - y) as [number, number];
          return { original: s.original, bytes, line: s.asText ? s.text : { start: a, end: b, insert: s.insert } };
        });
        for (const l of lines) {
          const given = typeof l.line === 'string' ? l.line : { ...l.line, insert: Buffer.from(l.line.insert, 'latin1') };
          const written = out.append(l.bytes, given);
          expect(written.equals(expected([l], false))).toBe(true);
        }
        if (finalNewline) out.newline();
        out.flush();
        expect(Buffer.concat(chunks).equals(expected(lines, finalNewline))).toBe(true);
        expect(out.lines).toBe(lines.length);
      }),
      { numRuns: 300 },
    );
  });
});
