import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanLines } from './scan-lines';

const FILE = join(resolve(import.meta.dirname, '../../../fixtures/corpus/generated'), '18-compaction-kept-dropped', 'transcript.jsonl');

describe('scanLines', () => {
  it('stops after lastLine, with the same lines and offsets as a whole scan', () => {
    const whole: [string, number, number][] = [];
    scanLines(FILE, (text, line, offset) => whole.push([text, line, offset]));
    const part: [string, number, number][] = [];
    const result = scanLines(FILE, (text, line, offset) => part.push([text, line, offset]), 0, 0, 30);
    expect(part).toEqual(whole.slice(0, 30));
    expect(result.lines).toBe(30);
    const raw = readFileSync(FILE);
    const [, , offset] = whole[30] ?? [];
    expect(raw.subarray(offset ?? 0, (offset ?? 0) + 40).toString()).toBe((whole[30]?.[0] ?? '').slice(0, 40));
  });

  it('reads nothing with lastLine 0 and everything past the end', () => {
    let n = 0;
    scanLines(FILE, () => n++, 0, 0, 0);
    expect(n).toBe(0);
    const all: number[] = [];
    scanLines(FILE, (_t, line) => all.push(line), 0, 0, 1_000_000);
    expect(all.length).toBe(readFileSync(FILE, 'utf8').split('\n').filter(Boolean).length);
  });
});
