import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readLines, stampOfPath, type SourceStamp } from './lines';

const dir = mkdtempSync(join(tmpdir(), 'glassbox-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readLines reads a line where a parse placed it, exactly, or says it cannot', () => {
  it('gives each placed line (CRLF lines keep their CR, a last line without a newline too); a misplaced one gives null', () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ text: fc.string({ unit: 'grapheme', maxLength: 30 }).map((t) => t.replace(/[\r\n]/g, '')), crlf: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.nat(),
        (specs, finalNewline, pick) => {
          const lines = specs.map((s) => (s.crlf ? `${s.text}\r` : s.text));
          const path = join(dir, `f${n++}.jsonl`);
          writeFileSync(path, lines.join('\n') + (finalNewline ? '\n' : ''));
          const stamp = stampOfPath(path) as SourceStamp;
          let offset = 0;
          // As a parse reports them: the length without the CR.
          const refs = lines.map((l) => {
            const bytes = Buffer.byteLength(l, 'utf8');
            const r = { offset, length: l.endsWith('\r') ? bytes - 1 : bytes };
            offset += bytes + 1;
            return r;
          });
          expect(readLines(path, refs, stamp)).toEqual(lines);
          const i = pick % refs.length;
          const ref = refs[i] as { offset: number; length: number };
          if (ref.length > 0) expect(readLines(path, [{ ...ref, offset: ref.offset + 1 }], stamp)).toBeNull();
          writeFileSync(path, 'changed');
          expect(readLines(path, refs, stamp)).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });
});
