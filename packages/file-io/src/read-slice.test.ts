import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSlice } from './read-slice';
import { scanLines } from './scan-lines';

const FILE = join(resolve(import.meta.dirname, '../../../fixtures/corpus/generated'), '18-compaction-kept-dropped', 'transcript.jsonl');

describe('readSlice', () => {
  it('reads back every line a scan found, by its offset and length', () => {
    const lines: [string, number, number][] = [];
    scanLines(FILE, (text, _line, offset, length) => lines.push([text, offset, length]));
    expect(lines.length).toBeGreaterThan(30);
    for (const [text, offset, length] of lines) expect(readSlice(FILE, offset, length)).toBe(text);
  });

  it('stops at the end of the file', () => {
    const size = statSync(FILE).size;
    const tail = readFileSync(FILE).subarray(size - 10).toString('utf8');
    expect(readSlice(FILE, size - 10, 100)).toBe(tail);
    expect(readSlice(FILE, size, 10)).toBe('');
  });
});
