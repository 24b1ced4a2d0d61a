import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters, visibleText } from './visible-text';

const HOSTILE = join(import.meta.dirname, '../../../fixtures/corpus/hostile/19-hostile-text/transcript.jsonl');

describe('visibleText', () => {
  it('names every C0 control but tab and newline, DEL and C1 controls, never passing one through', () => {
    expect(visibleText('a\x1b]52;c;cm0gLXJmIH4K\x07b')).toBe('a\\e]52;c;cm0gLXJmIH4K\\ab');
    expect(visibleText('\x1b[2J\r\b\f\v\0\x01\x7f')).toBe('\\e[2J\\r\\b\\f\\v\\0\\x01\\x7f');
    expect(visibleText('csi\x9b31m nel\x85')).toBe('csi⟨U+009B⟩31m nel⟨U+0085⟩');
    expect(visibleText('tab\tand\nnewline')).toBe('tab\tand\nnewline');
    for (let c = 0; c < 0xa0; c++) {
      const ch = String.fromCharCode(c);
      if (ch === '\t' || ch === '\n' || (c >= 0x20 && c < 0x7f)) continue;
      expect(visibleText(ch), `U+${c.toString(16)}`).not.toContain(ch);
    }
  });

  it('makes bidirectional controls and zero-width characters visible', () => {
    expect(visibleText('evil\u202etxt.sh')).toBe('evil⟨U+202E⟩txt.sh');
    expect(visibleText('config\u200b.json')).toBe('config⟨U+200B⟩.json');
    for (const ch of ['\u200e', '\u200f', '\u061c', '\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u2028', '\u2029', '\u{e0041}', '\ufe0f']) {
      expect(hasHiddenCharacters(ch), ch.codePointAt(0)?.toString(16)).toBe(true);
      expect(visibleText(`a${ch}b`)).toMatch(/^a⟨U\+[0-9A-F]{4,5}⟩b$/);
    }
  });

  it('names a lone surrogate and leaves a paired one alone', () => {
    expect(visibleText('x\ud800y')).toBe('x⟨U+D800⟩y');
    expect(visibleText('ok 😀')).toBe('ok 😀');
  });

  it('leaves emoji sequences whole (a joiner between pictographs, a presentation selector after one)', () => {
    for (const emoji of ['👩‍💻', '👩🏽‍💻', '❤️', '❤️‍🔥', '👨‍👩‍👧']) expect(visibleText(emoji)).toBe(emoji);
    // …but not a joiner or selector after a letter, where it hides in a name.
    expect(visibleText('a\u200d💻')).toBe('a⟨U+200D⟩💻');
    expect(visibleText('config1\ufe0f.json')).toBe('config1⟨U+FE0F⟩.json');
  });

  it('changes nothing in ordinary text, accents and scripts included', () => {
    const plain = 'Ünïcødé — 日本語 עברית العربية ✓ “quotes” ½ path/to/file.ts:12';
    expect(hasHiddenCharacters(plain)).toBe(false);
    expect(visibleText(plain)).toBe(plain);
  });

  it('leaves nothing hidden in a real session that records hostile names, output and prompts', () => {
    const text = readFileSync(HOSTILE, 'utf8');
    const decoded = text.trim().split('\n').map((line) => JSON.parse(line) as unknown);
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(decoded);
    const hostile = strings.filter(hasHiddenCharacters);
    expect(hostile.length).toBeGreaterThan(5);
    for (const s of hostile) expect(hasHiddenCharacters(visibleText(s))).toBe(false);
  });
});
