import { describe, expect, it } from 'vitest';
import { guardedIO, outJson, type CliIO } from '../io';
import { paint } from './palette';
import { jsonSafe, styleMark, terminalSafe } from './terminal-text';

function capture(): { io: CliIO; out: string[]; err: string[]; pieces: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const pieces: string[] = [];
  const io: CliIO = { out: (t) => out.push(t), err: (t) => err.push(t), write: (t) => pieces.push(t), env: {}, color: true, isTTY: true, exitCode: 0 };
  return { io, out, err, pieces };
}

const OSC52 = '\x1b]52;c;cm0gLXJmIH4K\x07';

describe('the output sanitiser', () => {
  it('shows escape sequences, bidi overrides and zero-width characters by name on out and err', () => {
    const c = capture();
    const io = guardedIO(c.io);
    io.out(`why: docs/${OSC52}notes.md no longer exists`);
    io.err(`glassbox: evil\u202etxt.sh and config\u200b.json`);
    expect(c.out[0]).toBe('why: docs/\\e]52;c;cm0gLXJmIH4K\\anotes.md no longer exists');
    expect(c.err[0]).toBe('glassbox: evil⟨U+202E⟩txt.sh and config⟨U+200B⟩.json');
  });

  it("turns only the palette's own marks into colour: an SGR sequence from a transcript stays visible", () => {
    const p = paint(true);
    const line = `${p.bold('Session')} ${p.fg('#E69F00', 'title')} \x1b[8mhidden\x1b[0m \x1b[1m`;
    const safe = terminalSafe(line);
    expect(safe).toBe('\x1b[1mSession\x1b[22m \x1b[38;2;230;159;0mtitle\x1b[39m \\e[8mhidden\\e[0m \\e[1m');
    // A mark is never printed as a mark, and a forged one (another key) is just text.
    expect(safe).not.toContain(styleMark('1'));
    expect(terminalSafe('\x1bforged[1mx')).toBe('\\eforged[1mx');
  });

  it('keeps JSON exact: the same values after parsing, with nothing raw a terminal could act on', () => {
    const value = { path: `docs/${OSC52}notes.md`, name: 'evil\u202etxt.sh', zw: 'config\u200b.json', c1: 'a\x9b2J', ls: 'a\u2028b', tag: '\u{e0041}', emoji: '👩‍💻' };
    const text = jsonSafe(JSON.stringify(value, null, 2));
    expect(JSON.parse(text)).toEqual(value);
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2028\u2029]/);
    expect(text).toContain('\\u202e');

    const streamed = capture();
    outJson(guardedIO(streamed.io), value);
    expect(JSON.parse(streamed.pieces.join(''))).toEqual(value);
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect(streamed.pieces.join('')).not.toMatch(/[\x1b\x07\u202e\u200b]/);

    const whole = capture();
    const { write: _unused, ...noStream } = whole.io;
    outJson(guardedIO(noStream), value);
    expect(JSON.parse(whole.out.join(''))).toEqual(value);
  });

  it('passes `raw` through exactly (only `show --raw` and piped payloads use it)', () => {
    const c = capture();
    const io = guardedIO(c.io);
    io.raw?.(OSC52);
    expect(c.out[0]).toBe(OSC52);
  });

  it("shares the given io's exit code", () => {
    const c = capture();
    const io = guardedIO(c.io);
    io.exitCode = 1;
    expect(c.io.exitCode).toBe(1);
  });
});
