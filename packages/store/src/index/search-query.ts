import type { Db } from './db';
import { SEARCH_ROWS_PER_FILE } from './statements';

/** Around a hit, the snippet's markers: control characters the indexed text never holds (see `indexableText`). */
const OPEN = '\u0002';
const CLOSE = '\u0003';
/** Tokens of context a snippet shows around its hits. */
const SNIPPET_TOKENS = 12;

/**
 * A search hit's context, as pieces: even indexes are text, odd ones the matched words. Never markup:
 * each shell renders the pieces as its own (the window as <mark>, the CLI in bold).
 */
export type SnippetParts = string[];

/** Search text as it is indexed: without the characters a snippet marks its hits with, so no transcript can fake one. */
export function indexableText(text: string): string {
  return text.replaceAll(OPEN, ' ').replaceAll(CLOSE, ' ');
}

/**
 * The files an FTS5 query matches, each with a snippet of its best-ranked row (FTS5's `snippet()`),
 * best first. `match` is a query built by `ftsQuery` (every word quoted): user text is never FTS syntax.
 */
export function searchSnippets(db: Db, match: string): Map<number, SnippetParts> {
  const rows = db
    .prepare<[string], { file_id: number; snip: string }>(
      `SELECT rowid / ${SEARCH_ROWS_PER_FILE} AS file_id, snippet(search, 0, char(2), char(3), '…', ${SNIPPET_TOKENS}) AS snip
       FROM search WHERE search MATCH ? ORDER BY rank`,
    )
    .all(match);
  const out = new Map<number, SnippetParts>();
  for (const r of rows) if (!out.has(r.file_id)) out.set(r.file_id, snippetParts(r.snip));
  return out;
}

/** "a \u0002hit\u0003 b" → ['a ', 'hit', ' b']; the snippet's lines joined into one. */
export function snippetParts(snip: string): SnippetParts {
  const parts: string[] = [''];
  for (const ch of snip.replace(/\s+/g, ' ')) {
    if (ch === OPEN) parts.push('');
    else if (ch === CLOSE) parts.push('');
    else parts[parts.length - 1] += ch;
  }
  return parts;
}
