import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LineBytes, LineOutput } from './output';
import { REPO_ROOT } from '@glassbox/test-support/store/fork';

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

describe('LineOutput hashes what it writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-output-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Real lines, more than one buffer's worth (4 MB), so the thread reads back while the file grows.
  const lines = readFileSync(join(REPO_ROOT, 'fixtures/corpus/generated/03-large-outputs/transcript.jsonl'), 'utf8').split('\n').filter(Boolean);

  it.for([
    { how: 'on this thread', digestThread: false },
    { how: 'on a thread that reads the file back', digestThread: true },
  ])('$how: the sha-256, CRC-32 and length of the bytes on disk', ({ digestThread }) => {
    const out = new LineOutput(join(dir, `fork-${digestThread}.jsonl`), 0o644, { digestThread, waitForThread: true });
    let total = 0;
    for (let round = 0; total < 6 << 20; round++) {
      for (const l of lines) {
        const bytes = Buffer.from(l, 'utf8');
        out.append(bytes, { start: 0, end: 0, insert: Buffer.alloc(0) });
        total += bytes.length + 1;
      }
    }
    out.newline();
    const got = out.close();
    const onDisk = readFileSync(out.temp);
    expect(got.bytes).toBe(onDisk.length);
    expect(got.sha256).toBe(createHash('sha256').update(onDisk).digest('hex'));
    expect(got.crc32).toBe(crc32(onDisk));
    out.discard();
    expect(existsSync(out.temp)).toBe(false);
  });

  it('discarded while the thread reads: the thread lets go and the temporary file is gone', () => {
    const out = new LineOutput(join(dir, 'discarded.jsonl'), 0o600, { digestThread: true, waitForThread: true });
    for (let i = 0; i < 2000; i++) for (const l of lines.slice(0, 3)) out.append(Buffer.from(l, 'utf8'), { start: 0, end: 0, insert: Buffer.alloc(0) });
    out.discard();
    expect(existsSync(out.temp)).toBe(false);
  });
});
