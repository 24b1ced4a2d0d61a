/**
 * Text from a transcript, made safe to show a person. Anything that can put text into a session (a file
 * name in a cloned repository, a fetched page, a command's output, a title) can hold characters that a
 * terminal obeys instead of printing (ESC sequences: OSC 52 writes the clipboard, CSI moves the cursor or
 * clears the screen) or that a reader cannot see (a right-to-left override reverses what follows, a
 * zero-width space makes `config\u200b.json` look like `config.json`). Each such character is replaced by a
 * visible name of itself, never interpreted and never dropped: `\e` for ESC, `\a` for BEL, `\x01`…
 * for the other C0 controls and DEL, and `⟨U+202E⟩` for C1 controls, bidirectional controls and every
 * other default-ignorable (invisible) code point, line and paragraph separators, and lone surrogates.
 * Tab and newline stay as they are. The CLI and the window use this one definition (SECURITY.md).
 */

const NAMED: Record<string, string> = { '\0': '\\0', '\x07': '\\a', '\b': '\\b', '\v': '\\v', '\f': '\\f', '\r': '\\r', '\x1b': '\\e' };

/** Everything replaced: C0 but tab and newline, DEL, C1, U+2028/9, invisible code points, lone surrogates. */
// eslint-disable-next-line no-control-regex -- finding control characters is this module's job
const HIDDEN = /[\0-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\p{Default_Ignorable_Code_Point}]|\p{Cs}/gu;
const ANY_HIDDEN = new RegExp(HIDDEN.source, 'u');

/** Joiners and presentation selectors that belong to an emoji sequence (👩‍💻, ❤️) are shown as the emoji. */
const ZWJ = '\u200d';
const EMOJI_PRESENTATION = /^[\ufe0e\ufe0f]$/;
const PICTOGRAPH = /\p{Extended_Pictographic}|[\u{1f3fb}-\u{1f3ff}]/u;

/** True when `visibleText` would change the text (it holds a control or an invisible character). */
export function hasHiddenCharacters(text: string): boolean {
  return ANY_HIDDEN.test(text);
}

/** The text with every control and invisible character replaced by its visible name (see above). */
export function visibleText(text: string): string {
  if (!ANY_HIDDEN.test(text)) return text;
  return text.replace(HIDDEN, (ch: string, at: number, whole: string) => (partOfEmoji(ch, at, whole) ? ch : nameOf(ch)));
}

/** `\e`, `\x01`, or `⟨U+202E⟩`. */
function nameOf(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** A zero-width joiner between two pictographs, or a presentation selector right after one. */
function partOfEmoji(ch: string, at: number, whole: string): boolean {
  if (ch !== ZWJ && !EMOJI_PRESENTATION.test(ch)) return false;
  const before = codePointBefore(whole, at);
  const beforeOk = before !== null && (PICTOGRAPH.test(before) || (ch === ZWJ && EMOJI_PRESENTATION.test(before) && pictographBefore(whole, at - 1)));
  if (!beforeOk) return false;
  if (ch !== ZWJ) return true;
  const after = String.fromCodePoint(whole.codePointAt(at + 1) ?? 0);
  return PICTOGRAPH.test(after);
}

function codePointBefore(text: string, at: number): string | null {
  if (at <= 0) return null;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text.slice(at - 1, at);
}

function pictographBefore(text: string, at: number): boolean {
  const before = codePointBefore(text, at);
  return before !== null && PICTOGRAPH.test(before);
}
