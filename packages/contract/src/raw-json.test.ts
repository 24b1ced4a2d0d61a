import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRawJson, rawJson, rawJsonPieces, stringifyWithRawJson } from './raw-json';

const SNAPSHOT = join(import.meta.dirname, '../../../fixtures/snapshots/03-large-outputs.json');

/** The pieces written one after the other, as the HTTP server writes them. */
function written(pieces: (string | Uint8Array)[]): string {
  return Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p)))).toString('utf8');
}

describe('raw JSON in a result', () => {
  const snapshot: unknown = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
  // A mark-like string in the value itself must stay text, and non-ASCII text must survive the bytes.
  const plain = { ok: true, value: { snapshot, bytes: 12, note: '\u0000raw:0\u0000', list: [{ title: 'für → 日本' }, null, 3] } };

  it.for([
    { how: 'as text', raw: (text: string): string | Uint8Array => text },
    { how: 'as UTF-8 bytes', raw: (text: string): string | Uint8Array => new TextEncoder().encode(text) },
  ])('given $how, is spliced by the HTTP writer and parsed by the other transports, to the same value', ({ raw }) => {
    const result = { ok: true, value: { ...plain.value, snapshot: rawJson(raw(JSON.stringify(snapshot))), list: [rawJson(raw(JSON.stringify(plain.value.list[0]))), null, 3] } };
    expect(written(rawJsonPieces(result))).toBe(JSON.stringify(plain));
    expect(stringifyWithRawJson(result)).toBe(JSON.stringify(plain));
    expect(parseRawJson(result)).toEqual(plain);
  });

  it('leaves a value without raw parts as it is: one piece, the same objects', () => {
    expect(rawJsonPieces(plain)).toEqual([JSON.stringify(plain)]);
    expect(parseRawJson(plain)).toBe(plain);
    expect(stringifyWithRawJson(plain)).toBe(JSON.stringify(plain));
  });
});
