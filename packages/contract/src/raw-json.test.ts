import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRawJson, rawJson, stringifyWithRawJson } from './raw-json';

const SNAPSHOT = join(import.meta.dirname, '../../../fixtures/snapshots/03-large-outputs.json');

describe('raw JSON in a result', () => {
  it('is spliced by the HTTP text and parsed by the other transports, to the same value', () => {
    const snapshot: unknown = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    const result = { ok: true, value: { snapshot: rawJson(JSON.stringify(snapshot)), bytes: 12, note: '\u0000raw:0\u0000' } };
    const plain = { ok: true, value: { snapshot, bytes: 12, note: '\u0000raw:0\u0000' } };
    expect(stringifyWithRawJson(result)).toBe(JSON.stringify(plain));
    expect(parseRawJson(result)).toEqual(plain);
    expect(stringifyWithRawJson(plain)).toBe(JSON.stringify(plain));
  });
});
