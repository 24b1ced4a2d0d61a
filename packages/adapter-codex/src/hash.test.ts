import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { portableSha256, portableUtf8Bytes } from './hash';

describe('sha-256 and UTF-8 byte counts', () => {
  it('the portable digest and byte count equal Node’s native ones, which the Node side installs (ASCII, multi-byte, astral, lone surrogate, empty)', () => {
    const native = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
    const texts = ['', 'cat src/cli.mjs', 'héllo wörld — ✓', '𝒳 emoji 🙂 and a lone \ud800 surrogate', 'x'.repeat(100_000)];
    expect(texts.map(portableSha256)).toEqual(texts.map(native));
    expect(texts.map(portableUtf8Bytes)).toEqual(texts.map((t) => Buffer.byteLength(t, 'utf8')));
  });
});
