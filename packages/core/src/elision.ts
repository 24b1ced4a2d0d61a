/**
 * Reversible elision, Glassbox's own text format: a large old tool result keeps its first and last
 * lines verbatim and its middle is replaced by one marker line naming the archived middle,
 *
 *   <head lines>
 *   [… 1,234 lines (48.1k chars) elided by glassbox — recall 3f2a9c01d4e5 …]
 *   <tail lines>
 *
 * Cuts fall only just after a newline, so no line and no UTF-8 character is ever split (a newline is
 * never inside a surrogate pair). Pure: the caller hashes the middle (core does no I/O and no crypto).
 */

/** How much of each end is kept: whole lines, at most `lines` of them and at most `chars` characters. */
export interface ElisionKeep {
  chars: number;
  lines: number;
}

/**
 * The defaults, chosen by measurement (docs/elision.md): 2,000 characters (≈ 700 tokens) and 40 lines
 * at each end keep a build's command line and first errors and a test run's summary.
 */
export const DEFAULT_ELIDE_KEEP: ElisionKeep = { chars: 2000, lines: 40 };
/**
 * A tool result is elided only above this many tokens (`--elide-over`). Measured (docs/elision.md):
 * Claude Code caps a command's output near 30,000 characters (≈10k tokens), so no result of the public
 * corpus is over 8k; at 4k the ends kept (≈1.3k tokens) still leave two thirds of a result removed.
 */
export const DEFAULT_ELIDE_OVER = 4000;

export interface ElisionSplit {
  head: string;
  middle: string;
  tail: string;
  /** Lines of the middle (a last line without its newline counts). */
  middleLines: number;
}

/**
 * What a plan holds for an elision until the fork cuts it from the payload's text (the plan sees
 * sizes, not payloads); never written into a fork.
 */
export const ELISION_PENDING = '[… elided by glassbox: the head and tail are cut by the fork …]';

/** A middle smaller than this is not worth a marker (the marker alone is ~90 characters). */
const MIN_MIDDLE_CHARS = 400;

/**
 * The head, middle and tail of a text under `keep`, or null when there is no middle worth eliding.
 * head + middle + tail === text, always; head ends and tail starts just after a newline.
 */
export function splitForElision(text: string, keep: ElisionKeep): ElisionSplit | null {
  const maxChars = Math.max(0, Math.floor(keep.chars));
  const maxLines = Math.max(0, Math.floor(keep.lines));
  // Head: whole lines from the front.
  let headEnd = 0;
  for (let n = 0; n < maxLines; n++) {
    const nl = text.indexOf('\n', headEnd);
    if (nl < 0 || nl + 1 > maxChars) break;
    headEnd = nl + 1;
  }
  // Tail: whole lines from the back. A final newline belongs to the last line.
  let tailStart = text.length;
  const searchFrom = text.endsWith('\n') ? text.length - 2 : text.length - 1;
  let from = searchFrom;
  for (let n = 0; n < maxLines && from >= headEnd; n++) {
    const nl = text.lastIndexOf('\n', from);
    if (nl < headEnd - 1 || nl < 0) break;
    if (text.length - (nl + 1) > maxChars) break;
    tailStart = nl + 1;
    from = nl - 1;
  }
  if (tailStart < headEnd) tailStart = headEnd;
  const middle = text.slice(headEnd, tailStart);
  if (middle.length < MIN_MIDDLE_CHARS) return null;
  return { head: text.slice(0, headEnd), middle, tail: text.slice(tailStart), middleLines: countLines(middle) };
}

function countLines(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function charsText(n: number): string {
  return n < 1000 ? String(n) : `${(n / 1000).toFixed(1)}k`;
}

/** The marker line (no newline): what is missing and the archive name to recall it by. */
export function formatElisionMarker(lines: number, chars: number, middleSha256: string): string {
  return `[… ${grouped(lines)} lines (${charsText(chars)} chars) elided by glassbox — recall ${middleSha256.slice(0, 12)} …]`;
}

const MARKER = /^\[… ([\d,]+) lines \((\d+(?:\.\d)?k?) chars\) elided by glassbox — recall ([0-9a-f]{12,64}) …\]$/;
/** Enough to find a marker without matching the regular expression on every line. */
export const ELISION_MARKER_TEXT = ' elided by glassbox — recall ';

export interface ElisionMarker {
  lines: number;
  /** The characters as the marker shows them (rounded above 999). */
  charsShown: string;
  /** The hash prefix of the archived middle. */
  sha256Prefix: string;
}

export function parseElisionMarker(line: string): ElisionMarker | null {
  const m = MARKER.exec(line);
  if (!m) return null;
  return { lines: Number((m[1] as string).replace(/,/g, '')), charsShown: m[2] as string, sha256Prefix: m[3] as string };
}

/** The text a fork writes in place of the payload: head, the marker on its own line, tail. */
export function elidedText(split: ElisionSplit, middleSha256: string): string {
  return `${split.head}${formatElisionMarker(split.middleLines, split.middle.length, middleSha256)}\n${split.tail}`;
}

export interface ParsedElision {
  head: string;
  marker: ElisionMarker;
  tail: string;
}

/**
 * Every way to read a text as head, marker line and tail (normally one; a head or tail that itself
 * holds a marker-shaped line gives more). Empty when the text is not an elision.
 */
export function parseElided(text: string): ParsedElision[] {
  const out: ParsedElision[] = [];
  for (let at = text.indexOf(ELISION_MARKER_TEXT); at >= 0; at = text.indexOf(ELISION_MARKER_TEXT, at + 1)) {
    const start = text.lastIndexOf('\n', at) + 1;
    const nl = text.indexOf('\n', at);
    if (nl < 0) continue;
    const marker = parseElisionMarker(text.slice(start, nl));
    if (marker) out.push({ head: text.slice(0, start), marker, tail: text.slice(nl + 1) });
  }
  return out;
}

/** True when a text is an elision Glassbox wrote (a cheap test for the classifier). */
export function isElided(text: string): boolean {
  return text.includes(ELISION_MARKER_TEXT) && parseElided(text).length > 0;
}

/**
 * Why an elided text is not a faithful elision of `original`, or null when it is: its head and tail
 * are the original's own ends, and the marker names the hash of exactly what lies between them.
 */
export function elisionProblem(original: string, elided: string, sha256Hex: (text: string) => string): string | null {
  const readings = parseElided(elided);
  if (readings.length === 0) return 'no elision marker line';
  let why = '';
  for (const r of readings) {
    if (!original.startsWith(r.head)) why = 'the head is not the start of the original';
    else if (!original.endsWith(r.tail)) why = 'the tail is not the end of the original';
    else if (r.head.length + r.tail.length > original.length) why = 'head and tail overlap';
    else {
      const middle = original.slice(r.head.length, original.length - r.tail.length);
      if (!sha256Hex(middle).startsWith(r.marker.sha256Prefix)) why = `the marker's hash ${r.marker.sha256Prefix} does not name the middle`;
      else if (countLines(middle) !== r.marker.lines) why = `the marker says ${r.marker.lines} lines, the middle has ${countLines(middle)}`;
      else return null;
    }
  }
  return why;
}

/** The middle an elision removed from `original` (null when `elided` is not a faithful elision of it). */
export function elidedMiddle(original: string, elided: string, sha256Hex: (text: string) => string): { middle: string; sha256Prefix: string } | null {
  for (const r of parseElided(elided)) {
    if (!original.startsWith(r.head) || !original.endsWith(r.tail) || r.head.length + r.tail.length > original.length) continue;
    const middle = original.slice(r.head.length, original.length - r.tail.length);
    if (sha256Hex(middle).startsWith(r.marker.sha256Prefix)) return { middle, sha256Prefix: r.marker.sha256Prefix };
  }
  return null;
}
