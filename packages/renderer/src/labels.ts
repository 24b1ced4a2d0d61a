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

/**
 * A file name cut to fit `chars` characters from the middle, so its start and its extension stay
 * ("build-ultra-long-name.test.ts" → "build-ul…test.ts"): the name is what tells two tiles apart.
 */
export function fitName(name: string, chars: number): string {
  if (name.length <= chars) return name;
  if (chars < 4) return name.slice(0, Math.max(1, chars));
  const dot = name.lastIndexOf('.');
  const tailWanted = dot > 0 && name.length - dot <= 8 ? name.length - dot + 3 : Math.floor((chars - 1) / 2);
  const tail = Math.min(tailWanted, Math.floor((chars - 1) / 2));
  const head = chars - 1 - tail;
  return `${name.slice(0, head)}…${name.slice(name.length - tail)}`;
}

/** About how many characters of an 11 px bold label fit across a tile this wide. */
export function labelChars(width: number): number {
  return Math.max(0, Math.floor((width - 12) / 8.2));
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
