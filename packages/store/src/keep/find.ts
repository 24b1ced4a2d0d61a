import { resolve } from 'node:path';
import { KeepError } from './errors';
import type { KeptArchive, KeptSession } from './kept-archive';

/**
 * Kept sessions named by a session id, an unambiguous id prefix (6 characters or more), or the path
 * the session had. Several matches are an error listing them; none is `not_kept`.
 */
export function findKept(archive: KeptArchive, ref: string): KeptSession {
  const all = archive.sessions();
  const asPath = ref.includes('/') ? resolve(ref) : null;
  let hits = asPath ? all.filter((s) => s.latest.original.path === asPath) : all.filter((s) => s.latest.sessionId === ref);
  if (hits.length === 0 && !asPath && ref.length >= 6) hits = all.filter((s) => s.latest.sessionId.startsWith(ref));
  if (hits.length === 0) throw new KeepError('not_kept', `no kept session "${ref}" in ${archive.root} (glassbox archive lists what it holds)`);
  if (hits.length > 1) {
    throw new KeepError('ambiguous', `"${ref}" matches ${hits.length} kept sessions; give the path it had:\n${hits.map((h) => `  ${h.latest.original.path}`).join('\n')}`);
  }
  return hits[0] as KeptSession;
}
