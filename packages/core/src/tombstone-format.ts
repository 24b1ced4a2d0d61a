import { ELISION_MARKER_TEXT, isElided, parseElided } from './elision';
/**
 * The text that replaces a payload in a fork is Glassbox's own format, not an agent's: it is written
 * by analysis (tombstoneText) and recognised here, so a fork's tombstones are classified as such in
 * any adapter's transcripts. `[glassbox: removed <what> (<why>); sha256 <first 12 hex of the archived payload>]`
 */
export const TOMBSTONE_PREFIX = '[glassbox: removed ';

/** Longer than any tombstone Glassbox writes: a payload this big is never a tombstone. */
const MAX_TOMBSTONE_CHARS = 4000;
const TOMBSTONE = /^\[glassbox: removed [\s\S]*; sha256 ([0-9a-f]{0,64})\]$/;

export function formatTombstone(what: string, why: string, archiveSha256: string): string {
  return `${TOMBSTONE_PREFIX}${what} (${why}); sha256 ${archiveSha256.slice(0, 12)}]`;
}

/** The archive hash prefix a tombstone names ('' when it names none), or null when the text is not a tombstone. */
export function tombstoneHash(text: string): string | null {
  // An elision (elision.ts) is a tombstone of its middle: its hash prefix names the archived middle.
  if (!text.startsWith(TOMBSTONE_PREFIX)) return text.includes(ELISION_MARKER_TEXT) ? (parseElided(text)[0]?.marker.sha256Prefix ?? null) : null;
  if (text.length > MAX_TOMBSTONE_CHARS) return null;
  const m = TOMBSTONE.exec(text);
  return m ? (m[1] ?? '') : null;
}

/**
 * What an adapter records on a block whose payload is Glassbox's (Block.tombstone, Block.elided):
 * the hash prefix a tombstone or an elision's marker names, and whether it is an elision (its head
 * and tail are the original's own lines). Null for any other text.
 */
export function tombstoneMark(text: string): { tombstone: string; elided?: true } | null {
  const hash = tombstoneHash(text);
  if (hash === null) return null;
  return !text.startsWith(TOMBSTONE_PREFIX) && isElided(text) ? { tombstone: hash, elided: true } : { tombstone: hash };
}
