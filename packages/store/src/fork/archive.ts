import type { AgentRegistry } from '@glassbox/core';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, readdirSync, renameSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ForkError, describe, fsyncDir, replaceFileAtomic, safeUnlink, tempPathFor, writeNewFileAtomic } from '../shared/atomic';
import type { ForkJob } from './job';
import { hashFile } from './lines';
import { sweepLeftovers } from './leftovers';
import { manifestProblem, type ForkManifest } from './manifest';
import { defaultDataDir } from '../shared/paths';
import { makeArchiveDir } from '../shared/private-folder';

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The archive folder: the `dir` parameter, else `GLASSBOX_DATA_DIR/archive`, else
 * `$XDG_DATA_HOME/glassbox/archive`, else `~/.local/share/glassbox/archive`.
 */
export function archiveDir(env: NodeJS.ProcessEnv = process.env, dir?: string, home = homedir()): string {
  return dir ?? join(defaultDataDir(env, home), 'archive');
}

const SHA = /^[0-9a-f]{64}$/;

/**
 * A content-addressed store: each object is named by the sha-256 of its bytes
 * (`objects/<first 2 hex>/<64 hex>`), written atomically, and checked against its name on every
 * read. Fork manifests live beside it (`forks/<forkId>.json`).
 */
export class Archive {
  constructor(readonly root: string) {}

  private objectPath(sha: string): string {
    return join(this.root, 'objects', sha.slice(0, 2), sha);
  }

  /** Stores bytes and returns their sha-256. An existing object is re-checked; a corrupted one is replaced. */
  put(data: Buffer | string): { sha256: string; repaired: boolean } {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const sha = sha256Hex(buf);
    const path = this.objectPath(sha);
    this.ensureDir(join(this.root, 'objects', sha.slice(0, 2)));
    if (existsSync(path)) {
      if (sha256Hex(readFileSync(path)) === sha) return { sha256: sha, repaired: false };
      replaceFileAtomic(path, buf);
      return { sha256: sha, repaired: true };
    }
    try {
      writeNewFileAtomic(path, buf);
    } catch (error) {
      // Another writer stored the same bytes first: fine if they check out.
      if (!(error instanceof ForkError && error.code === 'exists' && sha256Hex(readFileSync(path)) === sha)) throw error;
    }
    return { sha256: sha, repaired: false };
  }

  /**
   * A new object written as a stream (the original of a fork, copied while it is read): bytes go to
   * a temporary file in the archive, and `publish` names it by the hash of what was written.
   */
  incoming(): IncomingObject {
    this.ensureDir(join(this.root, 'objects'));
    return new IncomingObject(this, tempPathFor(join(this.root, 'objects', 'incoming')));
  }

  /**
   * Gives a written temporary object its name: an existing object is checked (streamed) and kept, or
   * replaced when corrupted; the temporary file is gone after.
   */
  publishIncoming(temp: string, sha: string, job?: ForkJob): { repaired: boolean } {
    const path = this.objectPath(sha);
    this.ensureDir(join(this.root, 'objects', sha.slice(0, 2)));
    for (let tries = 0; tries < 2; tries++) {
      if (existsSync(path)) {
        if (hashFile(path, job, 'checking the archive') === sha) {
          safeUnlink(temp);
          return { repaired: false };
        }
        try {
          renameSync(temp, path);
          fsyncDir(dirname(path));
        } catch (error) {
          safeUnlink(temp);
          throw new ForkError('unwritable', `cannot write ${path} (${describe(error)})`);
        }
        return { repaired: true };
      }
      try {
        linkSync(temp, path);
        safeUnlink(temp);
        fsyncDir(dirname(path));
        return { repaired: false };
      } catch (error) {
        // Another writer stored the same bytes first: check them on the next round.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          safeUnlink(temp);
          throw new ForkError('unwritable', `cannot write in the archive ${this.root} (${describe(error)}); nothing was written`);
        }
      }
    }
    safeUnlink(temp);
    throw new ForkError('unwritable', `cannot store ${sha} in the archive ${this.root}`);
  }

  /**
   * Where an object's bytes are, to be streamed: whoever reads them hashes what they read and calls
   * `checkRead` before trusting it (nothing is held whole, nothing is read twice).
   */
  objectFile(sha: string): string {
    if (!SHA.test(sha)) throw new ForkError('archive_missing', `${sha} is not a sha-256 object name`);
    const path = this.objectPath(sha);
    if (!existsSync(path)) throw new ForkError('archive_missing', `archive object ${sha} is missing from ${this.root}`);
    return path;
  }

  /** Throws when the bytes read from an object do not hash to its name. */
  checkRead(sha: string, actual: string): void {
    if (actual !== sha) throw corrupted(this.objectPath(sha), actual, sha);
  }

  has(sha: string): boolean {
    return SHA.test(sha) && existsSync(this.objectPath(sha));
  }

  /** The bytes of an object, after checking them against their name. */
  get(sha: string): Buffer {
    if (!SHA.test(sha)) throw new ForkError('archive_missing', `${sha} is not a sha-256 object name`);
    const path = this.objectPath(sha);
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch {
      throw new ForkError('archive_missing', `archive object ${sha} is missing from ${this.root}`);
    }
    const actual = sha256Hex(buf);
    if (actual !== sha) throw corrupted(path, actual, sha);
    return buf;
  }

  /** Objects whose name starts with a prefix (a tombstone shows the first 12 hex digits). */
  findByPrefix(prefix: string): string[] {
    const p = prefix.toLowerCase();
    if (!/^[0-9a-f]{6,64}$/.test(p)) return [];
    try {
      return readdirSync(join(this.root, 'objects', p.slice(0, 2))).filter((n) => n.startsWith(p) && SHA.test(n));
    } catch {
      return [];
    }
  }

  manifestPath(forkId: string): string {
    return join(this.root, 'forks', `${forkId}.json`);
  }

  putManifest(manifest: ForkManifest): string {
    this.ensureDir(join(this.root, 'forks'));
    const path = this.manifestPath(manifest.forkId);
    writeNewFileAtomic(path, JSON.stringify(manifest, null, 2) + '\n');
    return path;
  }

  removeManifest(forkId: string): void {
    safeUnlink(this.manifestPath(forkId));
  }

  /**
   * Removes what processes that died while writing here left: temporary objects and manifests. An
   * interrupted fork write elsewhere is passed to dropInterrupted (see writer.ts).
   */
  sweep(): string[] {
    const removed = [...sweepLeftovers(join(this.root, 'forks')), ...sweepLeftovers(join(this.root, 'objects'))];
    let shards: string[] = [];
    try {
      shards = readdirSync(join(this.root, 'objects'));
    } catch {
      // No objects yet.
    }
    for (const shard of shards) if (/^[0-9a-f]{2}$/.test(shard)) removed.push(...sweepLeftovers(join(this.root, 'objects', shard)));
    return removed;
  }

  /**
   * Drops the manifest of a fork whose write was interrupted (its temporary file left, its final name
   * never given), when the manifest names that very file: an earlier build wrote manifests first.
   */
  dropInterrupted(forkId: string, forkPath: string): void {
    const path = this.manifestPath(forkId);
    if (!existsSync(path) || existsSync(forkPath)) return;
    try {
      const m = JSON.parse(readFileSync(path, 'utf8')) as { forkPath?: unknown };
      if (m.forkPath === forkPath) safeUnlink(path);
    } catch {
      // A manifest that does not parse is reported when it is used.
    }
  }

  private ensureDir(dir: string): void {
    try {
      makeArchiveDir(this.root, dir);
    } catch (error) {
      throw new ForkError('unwritable', `cannot create the archive folder ${dir} (${describe(error)}); nothing was written`);
    }
  }

  /** A fork's manifest, checked as if hostile (its placement by these agents' naming rules) before any path in it is used. */
  getManifest(forkId: string, agents: AgentRegistry): ForkManifest {
    const path = this.manifestPath(forkId);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      throw new ForkError('not_a_fork', `no fork ${forkId} in the archive ${this.root} (no ${path}); was it written by glassbox clean --fork?`);
    }
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch (error) {
      throw new ForkError('archive_corrupt', `the fork manifest ${path} is damaged (${(error as Error).message})`);
    }
    // Every path in it is checked before it is used: an edited manifest must not steer a write.
    const problem = manifestProblem(m, forkId, agents);
    if (problem) throw new ForkError('archive_corrupt', `the fork manifest ${path} cannot be trusted (${problem}); nothing was written`);
    return m as ForkManifest;
  }
}

function corrupted(path: string, actual: string, sha: string): ForkError {
  return new ForkError(
    'archive_corrupt',
    `archive object ${path} is corrupted: its bytes hash to ${actual.slice(0, 16)}…, not ${sha.slice(0, 16)}…; it cannot be trusted and was not used`,
  );
}

/** An object being written to the archive as a stream; private (0600) like every archive file. */
export class IncomingObject {
  private fd: number | null;

  constructor(
    private readonly archive: Archive,
    readonly path: string,
  ) {
    try {
      this.fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      throw new ForkError('unwritable', `cannot write in the archive ${archive.root} (${describe(error)}); nothing was written`);
    }
  }

  /** The open file, for a thread that writes it (see ArchiveCopy); -1 once closed. */
  get descriptor(): number {
    return this.fd ?? -1;
  }

  write(chunk: Buffer): void {
    if (this.fd === null) return;
    try {
      let off = 0;
      while (off < chunk.length) off += writeSync(this.fd, chunk, off, chunk.length - off);
    } catch (error) {
      this.discard();
      throw new ForkError('unwritable', `cannot write in the archive ${this.archive.root} (${describe(error)}); nothing was written`);
    }
  }

  /** Names the object by the hash of what was written (see Archive.publishIncoming). */
  publish(sha: string, job?: ForkJob): { repaired: boolean } {
    try {
      if (this.fd !== null) fsyncSync(this.fd);
    } catch (error) {
      this.discard();
      throw new ForkError('unwritable', `cannot write in the archive ${this.archive.root} (${describe(error)}); nothing was written`);
    }
    this.close();
    return this.archive.publishIncoming(this.path, sha, job);
  }

  discard(): void {
    this.close();
    safeUnlink(this.path);
  }

  private close(): void {
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
  }
}
