import type { CompactionKey } from '@glassbox/core';
import { collapse, type KeyDraft } from './keys';

/**
 * A summary, ready to be searched: its text with whitespace runs collapsed. Matching is case-sensitive
 * and exact (docs/compactions.md): a path counts as quoted when the summary holds it absolute or relative
 * to the working directory; a path whose base name alone appears (not as part of another path) is
 * `basename`, which is not enough to carry the segment.
 */
export class SummaryText {
  private readonly text: string;

  constructor(
    summary: string,
    private readonly cwd: string | null,
  ) {
    this.text = collapse(summary);
  }

  find(key: KeyDraft): CompactionKey['found'] {
    const text = collapse(key.text);
    if (key.kind !== 'path') return this.text.includes(text) ? 'verbatim' : 'no';
    for (const form of pathForms(text, this.cwd)) if (this.has(form)) return 'verbatim';
    const base = text.slice(text.lastIndexOf('/') + 1);
    if (base.length >= 3 && base !== text && this.hasAlone(base)) return 'basename';
    return 'no';
  }

  /** A path form, not as the tail of a longer path (`/a/src/x.py` does not quote `src/x.py`). */
  private has(form: string): boolean {
    let at = this.text.indexOf(form);
    while (at >= 0) {
      const before = at > 0 ? this.text[at - 1] : ' ';
      if (form.startsWith('/') || !/[\w./-]/.test(before ?? ' ')) return true;
      at = this.text.indexOf(form, at + 1);
    }
    return false;
  }

  /** A base name standing on its own: not inside a longer name or a path. */
  private hasAlone(base: string): boolean {
    const re = new RegExp(`(?<![\\w./-])${escapeRe(base)}(?![\\w/-])`);
    return re.test(this.text);
  }
}

/**
 * The path as given, and its other spelling against the working directory: relative (`src/x.py`,
 * `./src/x.py`) for an absolute path under it, absolute for a relative one.
 */
function pathForms(path: string, cwd: string | null): string[] {
  const forms = [path];
  if (!cwd) return forms;
  const root = cwd.endsWith('/') ? cwd : cwd + '/';
  if (path.startsWith(root)) {
    const rel = path.slice(root.length);
    if (rel) forms.push(rel, `./${rel}`);
  } else if (!path.startsWith('/') && !path.startsWith('~')) {
    const rel = path.replace(/^\.\//, '');
    forms.push(root + rel);
    if (rel !== path) forms.push(rel);
  }
  return forms;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How a segment crossed the compaction, from its keys: carried by the summary when a primary key is
 * quoted verbatim; partly when only other keys are, or only a path's base name; not at all otherwise.
 */
export function carriedBy(keys: readonly CompactionKey[]): 'summary' | 'partial' | 'none' {
  if (keys.some((k) => k.primary && k.found === 'verbatim')) return 'summary';
  if (keys.some((k) => k.found !== 'no')) return 'partial';
  return 'none';
}
