import { existsSync, linkSync, readFileSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { sha256Hex } from '../fork/archive';
import { fsyncDir, replaceFileAtomic, safeUnlink, writeTempFile } from '../shared/atomic';
import { KeepError, errorCode } from './errors';
import { sweepLeftovers } from '../fork/leftovers';
import { makeArchiveDir } from '../shared/private-folder';

/** Every chunk file starts with this: the format and how the rest is stored. */
const MAGIC = Buffer.from('GBK1', 'latin1');
const RAW = 0;
const BROTLI = 1;
/** Measured on the corpus: about 8× on transcripts at ~20 MB/s (quality 9 and up gain little, at a tenth of the speed). */
const BROTLI_QUALITY = 5;
const SHA = /^[0-9a-f]{64}$/;

export interface PutResult {
  sha256: string;
  /** Bytes written to disk for it (0 when the chunk was already stored). */
  written: number;
  /** An existing copy failed its hash and was replaced. */
  repaired: boolean;
}

/**
 * Compressed, content-addressed chunks: `chunks/<2 hex>/<sha-256 of the uncompressed bytes>`. A chunk
 * is stored once however many kept versions name it, written atomically (never over a good copy), and
 * checked against its name every time it is read: one that fails is never returned.
 */
export class ChunkStore {
  /** Shard folders that got a new name since the last flush (their entries are not on disk yet). */
  private readonly unsynced = new Set<string>();
  /** Archives whose shards this process has swept of dead processes' temporary chunks. */
  private static readonly swept = new Set<string>();

  constructor(readonly root: string) {}

  /**
   * Makes the names of every chunk written since the last flush durable (one folder sync per shard,
   * not per chunk). A manifest naming chunks is written only after this.
   */
  flush(): void {
    for (const dir of this.unsynced) fsyncDir(dir);
    this.unsynced.clear();
  }

  /**
   * Removes the temporary chunk files (`.<sha>.glassbox-<pid>-….tmp`) of keeps that died before giving
   * them their names, in every shard, once per process and archive (a live process's are left alone).
   */
  sweepOnce(): string[] {
    if (ChunkStore.swept.has(this.root)) return [];
    ChunkStore.swept.add(this.root);
    const removed: string[] = [];
    let shards: string[];
    try {
      shards = readdirSync(join(this.root, 'chunks')).filter((s) => /^[0-9a-f]{2}$/.test(s));
    } catch {
      return removed;
    }
    for (const shard of shards) removed.push(...sweepLeftovers(join(this.root, 'chunks', shard)));
    return removed;
  }

  private pathOf(sha: string): string {
    return join(this.root, 'chunks', sha.slice(0, 2), sha);
  }

  /** Stores bytes under their sha-256 unless a good copy is there already. */
  put(data: Buffer, knownSha?: string): PutResult {
    const sha = knownSha ?? sha256Hex(data);
    const path = this.pathOf(sha);
    if (existsSync(path)) {
      if (this.intact(sha, data.length)) return { sha256: sha, written: 0, repaired: false };
      const encoded = encode(data);
      replaceFileAtomic(path, encoded);
      return { sha256: sha, written: encoded.length, repaired: true };
    }
    const encoded = encode(data);
    const shard = join(this.root, 'chunks', sha.slice(0, 2));
    this.ensureDir(shard);
    // Flushed under a temporary name, then linked to its name (never over one): the folder is synced by flush().
    let temp: string;
    try {
      temp = writeTempFile(path, encoded);
    } catch (error) {
      // A full disk (or a read-only one): the archive is left as it was, and the reason said.
      throw new KeepError('unwritable', `cannot store a chunk in ${shard}: ${(error as Error).message.replace(/^cannot write in \S+ \((.*)\); nothing was written$/, '$1')}; nothing was kept and the archive is as it was`);
    }
    try {
      linkSync(temp, path);
    } catch (error) {
      safeUnlink(temp);
      // Another process stored the same chunk first: fine if it checks out.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && this.intact(sha, data.length)) return { sha256: sha, written: 0, repaired: false };
      throw new KeepError('unwritable', `cannot store ${path} (${errorCode(error)}); nothing was kept`);
    }
    safeUnlink(temp);
    this.unsynced.add(shard);
    return { sha256: sha, written: encoded.length, repaired: false };
  }

  has(sha: string): boolean {
    return SHA.test(sha) && existsSync(this.pathOf(sha));
  }

  /** The chunk's bytes, after checking them against its name (and length, when known). */
  get(sha: string, bytes?: number): Buffer {
    if (!SHA.test(sha)) throw new KeepError('archive_corrupt', `${sha} is not a chunk name`);
    const path = this.pathOf(sha);
    let raw: Buffer;
    try {
      raw = readFileSync(path);
    } catch (error) {
      throw new KeepError('archive_missing', `the archive chunk ${path} is missing (${errorCode(error)}); run "glassbox archive verify"`);
    }
    let data: Buffer;
    try {
      data = decode(raw, bytes);
    } catch (error) {
      throw new KeepError('archive_corrupt', `the archive chunk ${path} is damaged (${(error as Error).message}); it was not used`);
    }
    const actual = sha256Hex(data);
    if (actual !== sha || (bytes !== undefined && data.length !== bytes)) {
      throw new KeepError(
        'archive_corrupt',
        `the archive chunk ${path} is corrupted: its bytes hash to ${actual.slice(0, 16)}…, not ${sha.slice(0, 16)}…; it cannot be trusted and was not used`,
      );
    }
    return data;
  }

  /** Whether the stored copy decodes to bytes with this name. */
  intact(sha: string, bytes?: number): boolean {
    try {
      this.get(sha, bytes);
      return true;
    } catch {
      return false;
    }
  }

  /** Bytes the chunk takes on disk (0 when absent). */
  storedSize(sha: string): number {
    try {
      return statSync(this.pathOf(sha)).size;
    } catch {
      return 0;
    }
  }

  /** Every stored chunk name. */
  list(): string[] {
    const out: string[] = [];
    let shards: string[];
    try {
      shards = readdirSync(join(this.root, 'chunks')).filter((s) => /^[0-9a-f]{2}$/.test(s));
    } catch {
      return out;
    }
    for (const shard of shards.sort()) {
      try {
        for (const n of readdirSync(join(this.root, 'chunks', shard))) if (SHA.test(n) && n.startsWith(shard)) out.push(n);
      } catch {
        // A shard that vanished meanwhile.
      }
    }
    return out;
  }

  /** Removes a chunk (prune, or a corrupted one verify sets aside so the next keep writes it again). */
  remove(sha: string): void {
    if (!SHA.test(sha)) return;
    try {
      unlinkSync(this.pathOf(sha));
    } catch {
      // Already gone.
    }
  }

  private ensureDir(dir: string): void {
    try {
      makeArchiveDir(this.root, dir);
    } catch (error) {
      throw new KeepError('unwritable', `cannot create the archive folder ${dir} (${errorCode(error)}); nothing was kept`);
    }
  }
}

function encode(data: Buffer): Buffer {
  const packed = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
  // Already-compressed bytes (an image in a checkpoint backup) are stored as they are.
  return packed.length < data.length ? Buffer.concat([MAGIC, Buffer.of(BROTLI), packed]) : Buffer.concat([MAGIC, Buffer.of(RAW), data]);
}

function decode(raw: Buffer, bytes: number | undefined): Buffer {
  if (raw.length < 5 || !raw.subarray(0, 4).equals(MAGIC)) throw new Error('not a Glassbox chunk');
  const codec = raw[4];
  const body = raw.subarray(5);
  if (codec === RAW) return body;
  // A damaged stream must not inflate without bound: no more than the length the manifest records.
  if (codec === BROTLI) return brotliDecompressSync(body, bytes !== undefined ? { maxOutputLength: Math.max(1, bytes) } : {});
  throw new Error(`unknown codec ${String(codec)}`);
}
