/**
 * Labels that lead with what a person recognises: a file's name first, then its folder (dimmed), for
 * POSIX and Windows paths alike; a session's title that is never a bare id or a command-line flag.
 * Both come from transcripts, so their controls and invisible characters are shown by name (core's
 * visibleText, as the CLI shows them): `config⟨U+200B⟩.json` never reads as `config.json`.
 */
import { visibleText } from '@glassbox/core';

export interface SplitLabel {
  /** What to read first: the file name, or the whole label when it is not a path. */
  name: string;
  /** The folder (and any leading word such as "file" or "memory"), shown after the name, dimmed. */
  rest: string;
}

const SEP = /[\\/]/;

/** Splits a path-like label (`src/app.ts`, `C:\repo\src\app.ts`, `file src/app.ts`) into name and folder. */
export function splitPathLabel(given: string): SplitLabel {
  const label = visibleText(given);
  const space = label.lastIndexOf(' ');
  // A leading word ("file", "memory", "plan file") before a path: the path is the last token.
  const path = space >= 0 && SEP.test(label.slice(space + 1)) ? label.slice(space + 1) : label;
  const prefix = path === label ? '' : label.slice(0, space);
  if (!SEP.test(path)) return { name: label, rest: '' };
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  const name = trimmed.slice(cut + 1) || trimmed;
  const folder = trimmed.slice(0, cut + 1);
  return { name, rest: [prefix, folder].filter(Boolean).join(' ') };
}

/** The width a text takes in a label, in px: the browser measures it; tests count characters. */
export type Measure = (text: string) => number;

/** About 8.2 px a character of an 11 px bold label: a cautious estimate, used where nothing can measure. */
export const charMeasure: Measure = (text) => [...text].length * 8.2;

/**
 * The longest start of `text` that fits `width` with an ellipsis after it (by bisection: `measure`
 * grows with the length). At least one character, so a label never vanishes into a bare "…".
 */
function cutEnd(text: string, width: number, measure: Measure): string {
  const chars = [...text];
  let lo = 1;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${chars.slice(0, mid).join('')}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join('')}…`;
}

/**
 * A file name fitted to `width` px. The name is what tells two tiles apart, so it is shown whole
 * whenever it fits (the folder beside it gives way first, in CSS); only a name wider than the whole
 * tile is cut, from its end, keeping its start: "repository_context.py" → "repository_con…", never
 * "repo….py".
 */
export function fitName(name: string, width: number, measure: Measure = charMeasure): string {
  if (measure(name) <= width) return name;
  return cutEnd(name, width, measure);
}

/** What a group header shows in `width` px: its label and, when there is room for both, its count. */
export interface FittedHeader {
  label: string;
  count: string | null;
}

/** Gap between a header's label and its count, in px (the CSS gap). */
const HEADER_GAP = 6;

/**
 * A group header fitted to `width` px. The label ("stale · drift") matters more than its size, so
 * the count is dropped first; then the label is cut from its end, but never inside its first word
 * (the class: "stale · dr…", "stale"), unless even that word is wider than the header.
 */
export function fitHeader(label: string, count: string, width: number, measure: Measure = charMeasure): FittedHeader {
  if (measure(label) + HEADER_GAP + measure(count) <= width) return { label, count };
  if (measure(label) <= width) return { label, count: null };
  const word = label.split(/\s/)[0] ?? label;
  if (measure(word) > width) return { label: cutEnd(word, width, measure), count: null };
  // No dangling separator before the ellipsis: "stale…", not "stale ·…".
  const cut = cutEnd(label, width, measure).replace(/[\s·]+…$/, '…');
  return { label: cut.length - 1 < word.length ? word : cut, count: null };
}

/** Whether a segment's label is a path (files, and attachments that carry one). */
export function isPathSource(type: string): boolean {
  return type === 'file' || type === 'attachment';
}

const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A session's title for the list and the header. Titles that say nothing (missing, a bare id, a
 * flag such as `--history`, a lone `.`) become "Untitled session" with the project and the date.
 */
export function sessionTitle(title: string | null | undefined, fallback: { project?: string | null; lastActivity?: string | null }): string {
  const t = (title ?? '').split('\n')[0]?.trim() ?? '';
  if (t && !UUID.test(t) && !/^-{1,2}[\w-]+$/.test(t) && /[\p{L}\p{N}]/u.test(t)) return visibleText(t);
  const when = fallback.lastActivity ? new Date(fallback.lastActivity) : null;
  const date = when && Number.isFinite(when.getTime()) ? DAY.format(when) : null;
  return ['Untitled session', fallback.project ? `in ${visibleText(fallback.project)}` : null, date ? `(${date})` : null].filter(Boolean).join(' ');
}

/**
 * The key a project groups under: Windows paths compare without regard to case or separator (one
 * project whatever the drive letter's case), POSIX paths exactly.
 */
export function projectKey(cwd: string): string {
  if (/^[a-zA-Z]:[\\/]/.test(cwd) || cwd.startsWith('\\\\')) return cwd.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  return cwd.replace(/\/+$/, '');
}
