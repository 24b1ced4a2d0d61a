import type { CompactionKey, Segment, ToolOp } from '@glassbox/core';

/**
 * The distinctive strings of one segment: what a summary would have to quote for the segment to be
 * said to survive a compaction. The rule is deterministic and documented in docs/compactions.md:
 *
 * - primary keys name the segment itself: its file's path, its command, URL or search pattern, the
 *   error lines of a failed call, the text of a prompt;
 * - secondary keys are strings inside its text: URLs, absolute paths, relative paths with an
 *   extension, error lines, identifiers (snake_case, camelCase, errno-style codes);
 * - a segment with none of these gets its longest line as its one key.
 */
export type KeyDraft = Omit<CompactionKey, 'found'>;

const MAX_PER_KIND = 12;
const MAX_IDENTIFIERS = 24;
/** Prompts are quoted up to this many characters: summaries quote prompts, sometimes cut. */
const PROMPT_CHARS = 200;
const LINE_MIN = 16;
const LINE_MAX = 160;
const ERROR_MIN = 8;
const ERROR_MAX = 240;

const URL_RE = /\bhttps?:\/\/[^\s"'`<>()]+/g;
/** Absolute paths (at least two parts), and `~/` or `./` ones. */
const ABS_PATH_RE = /(?:~|\.{1,2})?(?:\/[\w.@%+=,-]+){2,}/g;
/** Relative paths with at least one folder and an extension: `src/config.json`. */
const REL_PATH_RE = /(?<![\w./-])[\w.-]+(?:\/[\w.-]+)+\.[A-Za-z0-9]{1,8}(?![\w/])/g;
const ERROR_WORDS = /\b(?:error|exception|traceback|fatal|panic|failed|failure|denied|refused|cannot|unable to|not found|no such file|timed out)\b/i;
/** errno-style codes: ENOENT, ECONNRESET, ETIMEDOUT. */
const ERRNO = /\bE[A-Z]{3,}\b/;
/** The client's own prefix of a failed command's output: it names no error of its own. */
const BARE_EXIT = /^Exit code \d+$/;
const IDENT_RE = /[A-Za-z_$][\w$]*/g;

export interface KeySource {
  segment: Segment;
  /** The segment's text as the model read it (null when it could not be read back). */
  text: string | null;
  /** What the tool call did, for tool calls and their results. */
  op: ToolOp | null;
  /** The prompt as the person typed it, for prompt segments. */
  promptText: string | null;
}

export function keysOf(src: KeySource): KeyDraft[] {
  const keys: KeyDraft[] = [];
  const seen = new Set<string>();
  const add = (kind: KeyDraft['kind'], text: string, primary: boolean): void => {
    const t = collapse(text);
    if (t.length === 0 || seen.has(t)) return;
    seen.add(t);
    keys.push({ kind, text: t, primary });
  };
  const { segment, op, text } = src;
  if (segment.source.path) add('path', segment.source.path, true);
  if (op?.kind === 'command') add('command', op.command, true);
  if (op?.kind === 'fetch') add('url', op.url, true);
  if (op?.kind === 'search') add('identifier', op.pattern, true);
  if (segment.kind === 'prompt' && src.promptText) add('prompt', collapse(src.promptText).slice(0, PROMPT_CHARS), true);
  // A tool call's input is shown as `field: value` lines: the field names are not the call's strings.
  const body = text !== null && segment.kind === 'tool-input' ? text.replace(/^[\w-]+: /gm, '') : text;
  if (body) {
    // What a call asks for is not an error it met: error lines come from results, prose and context.
    const errors = segment.kind === 'tool-input' ? [] : errorLines(body);
    for (const e of errors) add('error', e, segment.isError === true);
    for (const u of capped(body.match(URL_RE))) add('url', trimEnd(u), false);
    const withoutUrls = body.replace(URL_RE, ' ');
    for (const p of capped(withoutUrls.match(ABS_PATH_RE))) add('path', trimEnd(p), false);
    for (const p of capped(withoutUrls.match(REL_PATH_RE))) add('path', trimEnd(p), false);
    for (const id of identifiers(body)) add('identifier', id, false);
  }
  if (keys.length === 0 && body) {
    const line = longestLine(body);
    if (line) add('line', line, true);
  }
  // With nothing that names it, any of its strings stands for it (prose, reasoning, listings).
  if (!keys.some((k) => k.primary)) for (const k of keys) k.primary = true;
  return keys;
}

/** Lines that report a failure: an error word or an errno code, 8–240 characters, at most 12. */
export function errorLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = collapse(raw);
    if (line.length < ERROR_MIN || line.length > ERROR_MAX || BARE_EXIT.test(line)) continue;
    if (ERROR_WORDS.test(line) || ERRNO.test(line)) out.push(line);
    if (out.length >= MAX_PER_KIND) break;
  }
  return out;
}

/** snake_case, camelCase and errno-style words of 6 characters or more, in order of first use, at most 24. */
export function identifiers(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(IDENT_RE)) {
    const w = m[0];
    if (w.length < 6 || seen.has(w)) continue;
    if (/[A-Za-z0-9]_[A-Za-z0-9]/.test(w) || /[a-z][A-Z]/.test(w) || /^E[A-Z]{4,}$/.test(w)) {
      seen.add(w);
      out.push(w);
      if (out.length >= MAX_IDENTIFIERS) break;
    }
  }
  return out;
}

/** Whitespace runs become one space: line breaks and indentation never decide a match. */
export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function longestLine(text: string): string | null {
  let best = '';
  for (const raw of text.split('\n')) {
    const line = collapse(raw);
    if (line.length > best.length && line.length <= LINE_MAX) best = line;
  }
  return best.length >= LINE_MIN ? best : null;
}

function capped(matches: RegExpMatchArray | null): string[] {
  return matches ? [...new Set(matches)].slice(0, MAX_PER_KIND) : [];
}

/** Sentence punctuation after a path or URL is not part of it. */
function trimEnd(s: string): string {
  return s.replace(/[.,:;!?)\]}'"]+$/, '');
}
