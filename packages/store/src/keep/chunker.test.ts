import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@glassbox/test-support/store/fork';
import { CHUNK_SIZES, chunkLengths } from './chunker';

// The largest real transcript in the corpus (persisted and inline tool outputs): several chunks.
const bytes = readFileSync(join(REPO_ROOT, 'fixtures/corpus/generated/03-large-outputs/transcript.jsonl'));

function cuts(lengths: number[], from = 0): number[] {
  const out: number[] = [];
  let at = from;
  for (const l of lengths) out.push((at += l));
  return out;
}

describe('chunkLengths', () => {
  it('covers the file with chunks between the minimum and maximum size (the last may be shorter)', () => {
    const lengths = chunkLengths(bytes);
    expect(lengths.length).toBeGreaterThan(3);
    expect(lengths.reduce((a, b) => a + b, 0)).toBe(bytes.length);
    for (const l of lengths.slice(0, -1)) {
      expect(l).toBeGreaterThanOrEqual(CHUNK_SIZES.min);
      expect(l).toBeLessThanOrEqual(CHUNK_SIZES.max);
    }
  });

  it('cuts the same way from any earlier cut as from the start: a kept prefix need not be chunked again', () => {
    const all = cuts(chunkLengths(bytes));
    const from = all[1] as number;
    expect(cuts(chunkLengths(bytes, from), from)).toEqual(all.slice(2));
  });

  it('keeps every cut before the end of a prefix when the file grows (an appended session)', () => {
    const prefix = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    const before = cuts(chunkLengths(prefix)).slice(0, -1);
    const after = cuts(chunkLengths(bytes));
    expect(before.length).toBeGreaterThan(1);
    expect(after.slice(0, before.length)).toEqual(before);
  });

  it('moves only the cuts near an edit', () => {
    const edited = Buffer.from(bytes);
    const at = Math.floor(bytes.length / 2);
    edited[at] = (edited[at] as number) ^ 0x20;
    const a = cuts(chunkLengths(bytes));
    const b = new Set(cuts(chunkLengths(edited)));
    const moved = a.filter((c) => !b.has(c));
    expect(moved.length).toBeLessThanOrEqual(2);
  });
});
