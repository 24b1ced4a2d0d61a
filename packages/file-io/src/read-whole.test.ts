import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWhole } from './read-whole';

const FILE = join(resolve(import.meta.dirname, '../../../fixtures/corpus/generated'), '18-compaction-kept-dropped', 'transcript.jsonl');

describe('readWhole', () => {
  it('reads an open file whole, and only what is there when the size given is larger', () => {
    const fd = openSync(FILE, 'r');
    try {
      const size = statSync(FILE).size;
      expect(readWhole(fd, size).equals(readFileSync(FILE))).toBe(true);
      expect(readWhole(fd, size + 100).length).toBe(size);
      expect(readWhole(fd, 10).toString('utf8')).toBe(readFileSync(FILE, 'utf8').slice(0, 10));
    } finally {
      closeSync(fd);
    }
  });
});
