import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../fork/archive';
import { safeUnlink, writeNewFileAtomic } from '../shared/atomic';
import { ChunkStore } from './chunk-store';
import { KeepError, errorCode } from './errors';
import { keptManifestProblem, type KeptManifest } from './manifest';
import { makeArchiveDir } from '../shared/private-folder';

/** Glassbox noticed the original of a kept session was gone (written once, removed by a restore). */
export interface GoneNote {
  path: string;
  noticedAt: string;
  /** When the client was due to delete it, as known then (null: it was not due). */
  dueAt: string | null;
}

/** The session was moved into the archive on purpose (an undone fork): its files are gone from disk by design. */
export interface RemovedNote {
  path: string;
  removedAt: string;
  /** Why, in words ("fork undone"). */
  reason: string;
}

/** A kept session as the archive lists it: its versions, newest last, and the newest one's manifest. */
export interface KeptSession {
  key: string;
  latest: KeptManifest;
  versions: { name: string; keptAt: string }[];
  gone: GoneNote | null;
  removed: RemovedNote | null;
}

const VERSION = /^\d{8}T\d{9}Z-[0-9a-f]{8}\.json$/;

/**
 * The kept sessions of an archive: `kept/<key>/<version>.json` manifests (immutable, one per keep that
 * found a change) over the shared chunk store, and `kept/<key>/gone.json` once the original is gone.
 * `<key>` is the session id and a hash of the original path, so one id kept from two places stays two.
 */
export class KeptArchive {
  readonly chunks: ChunkStore;
  readonly dir: string;
  private readonly cache = new Map<string, { stamp: string; value: KeptSession | null }>();

  constructor(readonly root: string) {
    this.chunks = new ChunkStore(root);
    this.dir = join(root, 'kept');
  }

  static keyOf(sessionId: string, originalPath: string): string {
    const id = /^[A-Za-z0-9_-]{1,100}$/.test(sessionId) ? sessionId : 'session';
    return `${id}.${sha256Hex(originalPath).slice(0, 12)}`;
  }

  keys(): string[] {
    try {
      return readdirSync(this.dir).filter((n) => /^[A-Za-z0-9_-]{1,100}\.[0-9a-f]{12}$/.test(n)).sort();
    } catch {
      return [];
    }
  }

  versions(key: string): string[] {
    try {
      return readdirSync(join(this.dir, key)).filter((n) => VERSION.test(n)).sort();
    } catch {
      return [];
    }
  }

  /** A version's manifest, validated before any of its paths is used. */
  read(key: string, version: string): KeptManifest {
    const path = join(this.dir, key, version);
    let m: unknown;
    try {
      m = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new KeepError('archive_corrupt', `the kept manifest ${path} cannot be read (${error instanceof SyntaxError ? error.message : errorCode(error)})`);
    }
    const problem = keptManifestProblem(m);
    if (problem) throw new KeepError('archive_corrupt', `the kept manifest ${path} cannot be trusted (${problem}); it was not used`);
    return m as KeptManifest;
  }

  /** Writes a new version (never over one); returns its name. */
  write(m: KeptManifest): string {
    const key = KeptArchive.keyOf(m.sessionId, m.original.path);
    const folder = join(this.dir, key);
    try {
      makeArchiveDir(this.root, folder);
    } catch (error) {
      throw new KeepError('unwritable', `cannot create ${folder} (${errorCode(error)}); nothing was kept`);
    }
    const stamp = m.keptAt.replace(/[-:.]/g, '');
    const name = `${stamp}-${randomBytes(4).toString('hex')}.json`;
    try {
      writeNewFileAtomic(join(folder, name), JSON.stringify(m) + '\n');
    } catch (error) {
      throw new KeepError('unwritable', `cannot write the kept manifest in ${folder} (${(error as Error).message}); the archive is as it was`);
    }
    this.cache.delete(key);
    return name;
  }

  removeVersion(key: string, version: string): void {
    if (!VERSION.test(version)) return;
    safeUnlink(join(this.dir, key, version));
    this.cache.delete(key);
    if (this.versions(key).length === 0) {
      safeUnlink(join(this.dir, key, 'gone.json'));
      safeUnlink(join(this.dir, key, 'removed.json'));
      try {
        rmdirSync(join(this.dir, key));
      } catch {
        // Not empty (a keep added a version meanwhile) or gone already.
      }
    }
  }

  /**
   * The session under a key: its newest readable version and the list of versions. A damaged newest
   * manifest falls back to the one before (and `problems` says which was skipped).
   */
  session(key: string, problems: string[] = []): KeptSession | null {
    // The folder's names are the stamp: versions and the gone note are written once and never changed,
    // and a folder's mtime can stay the same across two changes within one clock tick.
    let stamp: string;
    try {
      stamp = readdirSync(join(this.dir, key)).sort().join('/');
    } catch {
      this.cache.delete(key);
      return null;
    }
    const hit = this.cache.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const names = this.versions(key);
    let latest: KeptManifest | null = null;
    const versions: KeptSession['versions'] = [];
    for (let i = names.length - 1; i >= 0; i--) {
      const name = names[i] as string;
      if (!latest) {
        try {
          latest = this.read(key, name);
        } catch (error) {
          problems.push((error as Error).message);
          continue;
        }
      }
      versions.unshift({ name, keptAt: keptAtOf(name) });
    }
    const value = latest ? { key, latest, versions, gone: this.goneNote(key), removed: this.removedNote(key) } : null;
    this.cache.set(key, { stamp, value });
    return value;
  }

  /** Every kept session. */
  sessions(problems: string[] = []): KeptSession[] {
    const out: KeptSession[] = [];
    for (const key of this.keys()) {
      const s = this.session(key, problems);
      if (s) out.push(s);
    }
    return out;
  }

  goneNote(key: string): GoneNote | null {
    try {
      const g = JSON.parse(readFileSync(join(this.dir, key, 'gone.json'), 'utf8')) as Partial<GoneNote>;
      if (typeof g.path !== 'string' || typeof g.noticedAt !== 'string') return null;
      return { path: g.path, noticedAt: g.noticedAt, dueAt: typeof g.dueAt === 'string' ? g.dueAt : null };
    } catch {
      return null;
    }
  }

  /** Records when the original was first seen gone; an earlier note stays. */
  noteGone(key: string, note: GoneNote): void {
    try {
      writeNewFileAtomic(join(this.dir, key, 'gone.json'), JSON.stringify(note) + '\n');
    } catch {
      // Already noted (or the archive is read-only: the note is only for display).
    }
    this.cache.delete(key);
  }

  clearGone(key: string): void {
    safeUnlink(join(this.dir, key, 'gone.json'));
    this.cache.delete(key);
  }

  removedNote(key: string): RemovedNote | null {
    try {
      const r = JSON.parse(readFileSync(join(this.dir, key, 'removed.json'), 'utf8')) as Partial<RemovedNote>;
      if (typeof r.path !== 'string' || typeof r.removedAt !== 'string') return null;
      return { path: r.path, removedAt: r.removedAt, reason: typeof r.reason === 'string' ? r.reason : 'removed' };
    } catch {
      return null;
    }
  }

  /** Records that the session's files were removed on purpose; a later removal replaces the note. */
  noteRemoved(key: string, note: RemovedNote): void {
    safeUnlink(join(this.dir, key, 'removed.json'));
    writeNewFileAtomic(join(this.dir, key, 'removed.json'), JSON.stringify(note) + '\n');
    this.cache.delete(key);
  }

  clearRemoved(key: string): void {
    safeUnlink(join(this.dir, key, 'removed.json'));
    this.cache.delete(key);
  }
}

/** `20261201T101500123Z-ab12cd34.json` → `2026-12-01T10:15:00.123Z`. */
function keptAtOf(name: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z` : name;
}
