import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunked, writeJson } from './json-stream';

const SNAPSHOTS = join(import.meta.dirname, '../../../../fixtures/snapshots');

function streamed(value: unknown, size?: number): { text: string; pieces: number } {
  let text = '';
  let pieces = 0;
  const out = chunked((c) => {
    text += c;
    pieces++;
  }, size);
  writeJson(value, out.emit);
  out.flush();
  return { text, pieces };
}

describe('writeJson', () => {
  it('writes what JSON.stringify(value, null, 2) writes, for every recorded snapshot', () => {
    const files = readdirSync(SNAPSHOTS).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const value: unknown = JSON.parse(readFileSync(join(SNAPSHOTS, f), 'utf8'));
      expect(streamed(value).text).toBe(JSON.stringify(value, null, 2));
    }
  });

  it('agrees on the values JSON.stringify drops or rewrites', () => {
    const value = {
      a: undefined,
      b: [undefined, () => 1, Symbol('s'), null, 'x\ny', { nested: [[], {}, [1, [2]]] }],
      c: new Date(0),
      d: { toJSON: () => ({ shown: true }) },
      e: {},
      f: [],
      g: -0,
      h: 'ü "quoted" \\ tab\t',
    };
    expect(streamed(value).text).toBe(JSON.stringify(value, null, 2));
    expect(streamed([]).text).toBe('[]');
    expect(streamed('plain').text).toBe('"plain"');
  });

  it('hands a large document over in many pieces', () => {
    const turns = Array.from({ length: 5000 }, (_, index) => ({ index, line: index * 3, usage: { inputTokens: index, outputTokens: 2 } }));
    const { text, pieces } = streamed({ turns }, 4096);
    expect(text).toBe(JSON.stringify({ turns }, null, 2));
    expect(pieces).toBeGreaterThan(50);
  });
});
