/** JavaScript's `\s` (and `trim`) set: ASCII spaces and controls, line terminators, Unicode spaces. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * `text.slice(0, scanLimit).replace(/\s+/g, ' ').trim().slice(0, cap)` without the regular expression:
 * it stops as soon as `cap` characters are known, so a preview of a long output costs no more than
 * its first words.
 */
export function squeeze(text: string, cap: number, scanLimit: number = text.length): string {
  const words: string[] = [];
  let len = -1;
  let start = -1;
  const end = Math.min(text.length, scanLimit);
  for (let i = 0; i <= end; i++) {
    if (i === end || isSpace(text.charCodeAt(i))) {
      if (start < 0) continue;
      words.push(text.slice(start, i));
      len += i - start + 1;
      start = -1;
      if (len >= cap) break;
    } else if (start < 0) start = i;
  }
  const out = words.join(' ');
  return out.length > cap ? out.slice(0, cap) : out;
}

/** One line of at most `max` characters, an ellipsis marking a cut. */
export function oneLine(text: string, max: number, scanLimit?: number): string {
  const one = squeeze(text, max + 1, scanLimit);
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
}
