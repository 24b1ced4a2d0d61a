import { randomBytes } from 'node:crypto';
import { visibleText } from '@glassbox/core';

/**
 * The one output sanitiser every human-readable line of the CLI goes through (main.ts wraps the
 * command's io in it): transcript text can hold terminal escape sequences (OSC 52 writes the clipboard,
 * CSI clears the screen) and invisible characters (bidi overrides, zero-width spaces); each is printed
 * as a visible name of itself (core's `visibleText`), never interpreted.
 *
 * The palette's own colours must still reach the terminal, and nothing from a transcript may pass for
 * them: a style is written as a mark holding a key drawn at random for this process, which no
 * transcript written before the run can contain, and only a mark with that key becomes an SGR sequence.
 */
const KEY = randomBytes(9).toString('base64url');
const MARK = new RegExp(`\\x1b${KEY}\\[([0-9;]{1,32})m`, 'g');

/** An SGR style (`1`, `22`, `38;2;230;159;0`) as only this process can write it. */
export function styleMark(codes: string): string {
  return `\x1b${KEY}[${codes}m`;
}

/** A line for the terminal: the palette's marks become styles, every other control or invisible character is shown by name. */
export function terminalSafe(text: string): string {
  if (!text.includes('\x1b')) return visibleText(text);
  let out = '';
  let at = 0;
  for (const m of text.matchAll(MARK)) {
    out += visibleText(text.slice(at, m.index)) + `\x1b[${m[1] as string}m`;
    at = m.index + m[0].length;
  }
  return out + visibleText(text.slice(at));
}

/**
 * JSON text with the characters JSON.stringify leaves raw but a terminal or a reader might act on (C1
 * controls, bidi and zero-width characters, line separators) written as `\u` escapes: the same document
 * to any JSON parser, exact value for value, and inert on a terminal. JSON.stringify already escapes
 * C0 controls and lone surrogates; these characters can only occur inside strings.
 */
export function jsonSafe(json: string): string {
  return JSON_RAW.test(json) ? json.replace(JSON_RAW_ALL, unicodeEscape) : json;
}

/** `\u200b`; a character beyond the BMP as its two UTF-16 halves, as JSON writes it. */
function unicodeEscape(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
const JSON_RAW_ALL = /[\x7f-\x9f\u2028\u2029\p{Default_Ignorable_Code_Point}]/gu;
const JSON_RAW = new RegExp(JSON_RAW_ALL.source, 'u');
