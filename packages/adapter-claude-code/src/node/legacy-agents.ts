import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The legacy subagent files (`agent-*.jsonl`, written by older clients beside the sessions) of a
 * project folder, and the session each names. Every session read asks for them; listing the folder
 * each time made a cold index of a project with N sessions list N entries N times, and read the head
 * of every legacy file once per session. A folder's listing is kept while its modification time and
 * inode stay the same (adding, removing or renaming an entry changes them); a folder changed within
 * the last moments is listed again next time, since a second change within its clock's tick would
 * not show.
 */
interface Listing {
  mtimeMs: number;
  ino: number;
  /** File names matching `agent-*.jsonl` in any case, sorted. */
  names: string[];
  /** The session id each file's head names, once read (a head that named none is asked again). */
  sessions: Map<string, string>;
}

const listings = new Map<string, Listing>();
const SETTLED_MS = 2000;
const LEGACY = /^agent-.+\.jsonl$/i;

function listingOf(dir: string): Listing {
  let mtimeMs = -1;
  let ino = -1;
  try {
    const st = statSync(dir);
    mtimeMs = st.mtimeMs;
    ino = st.ino;
  } catch {
    listings.delete(dir);
    return { mtimeMs, ino, names: [], sessions: new Map() };
  }
  const kept = listings.get(dir);
  if (kept && kept.mtimeMs === mtimeMs && kept.ino === ino) return kept;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => LEGACY.test(n)).sort();
  } catch {
    names = [];
  }
  const listing: Listing = { mtimeMs, ino, names, sessions: new Map() };
  if (Date.now() - mtimeMs > SETTLED_MS) listings.set(dir, listing);
  else listings.delete(dir);
  return listing;
}

/** The `agent-*.jsonl` names (any case) in a folder, sorted. */
export function legacyAgentNames(dir: string): readonly string[] {
  return listingOf(dir).names;
}

/** The legacy subagent files of a folder whose head names this session, as sorted names. */
export function legacyAgentsOf(dir: string, sessionId: string, test: RegExp): string[] {
  const listing = listingOf(dir);
  const out: string[] = [];
  for (const name of listing.names) {
    if (!test.test(name)) continue;
    let id = listing.sessions.get(name);
    if (id === undefined) {
      const read = firstSessionId(join(dir, name));
      if (read === null) continue;
      id = read;
      listing.sessions.set(name, id);
    }
    if (id === sessionId) out.push(name);
  }
  return out;
}

/** The session id the first 64 KiB of a file name (a legacy subagent file names its parent's). */
export function firstSessionId(path: string): string | null {
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(64 * 1024);
      const n = readSync(fd, buf, 0, buf.length, 0);
      const m = /"sessionId"\s*:\s*"([^"]+)"/.exec(buf.toString('utf8', 0, n));
      return m?.[1] ?? null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}
