import { closeSync, fstatSync } from 'node:fs';
import { ForkError, openSourceReadOnly } from '../shared/atomic';
import type { Archive, IncomingObject } from './archive';
import type { ForkJob } from './job';
import type { SourceStamp } from './lines';
import { ABORT, ClaimedThread, SEQ } from './claimed-thread';

/** What the thread copied into the archive: the original's bytes as it read them. */
export interface ArchivedOriginal {
  sha256: string;
  crc32: number;
  bytes: number;
  stamp: SourceStamp;
}

/** Below this size the fork does the work itself: a thread would not pay for its start. */
export const MIN_THREADED_BYTES = 16 << 20;

/** Whether big files' bytes are copied and hashed on threads: for files worth it ('auto'), always (tests) or never. */
export type ArchiveThread = 'auto' | 'always' | 'never';

// The stamp is taken before the claim: once the copy is claimed, the file it copies is the one stamped.
const PROLOGUE = `
const { readSync, writeSync, fstatSync, fsyncSync } = require('node:fs');
let st = null;
try { st = fstatSync(workerData.source, { bigint: true }); } catch {}
`;

// Two passes over the original: while the plan reads it, its sha-256 and CRC-32 (nothing written, so
// a plan that finds nothing to remove costs the disk nothing); once the fork is to be written (SEQ
// bumped by \`claim\`), the copy into the archive, which must read the same bytes (CRC-32 and length)
// or the result says the original moved. The copy runs beside the fork pass, on page-cached bytes.
const COPY = `
const { source, target, chunk } = workerData;
const { createHash } = require('node:crypto');
const { crc32 } = require('node:zlib');
if (st === null) st = fstatSync(source, { bigint: true });
const size = Number(st.size);
const hash = createHash('sha256');
const buf = Buffer.allocUnsafe(chunk);
let pos = 0;
let crc = 0;
while (pos < size) {
  if (Atomics.load(flags, ${ABORT}) !== 0) return { error: 'cancelled' };
  const n = readSync(source, buf, 0, Math.min(chunk, size - pos), pos);
  if (n <= 0) break;
  hash.update(buf.subarray(0, n));
  crc = crc32(buf.subarray(0, n), crc);
  pos += n;
}
const sha256 = hash.digest('hex');
while (Atomics.load(flags, ${SEQ}) === 0) Atomics.wait(flags, ${SEQ}, 0, 1000);
let copied = 0;
let again = 0;
while (copied < pos) {
  if (Atomics.load(flags, ${ABORT}) !== 0) return { error: 'cancelled' };
  const n = readSync(source, buf, 0, Math.min(chunk, pos - copied), copied);
  if (n <= 0) break;
  const piece = buf.subarray(0, n);
  again = crc32(piece, again);
  let off = 0;
  while (off < n) off += writeSync(target, piece, off, n - off);
  copied += n;
}
if (copied !== pos || again !== crc) return { moved: true };
fsyncSync(target);
return { sha256, crc32: crc, bytes: pos, stamp: { dev: Number(st.dev), ino: Number(st.ino), size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs } };
`;

/**
 * The original of a fork copied into the archive on a thread of its own, started before the plan
 * parses the file, so its sha-256 (the object's name) and the copy cost the fork no time of its own:
 * the hash runs on the other core while the plan reads the same bytes, the copy while the fork pass
 * writes the fork (it starts at `claim`, so a plan with nothing to remove writes nothing). The copy is trusted only if its
 * CRC-32, length and stamp are the fork pass's (the bytes the plan parsed and the fork was made
 * from); otherwise the source moved and the attempt starts again.
 *
 * If the thread has not begun when the fork pass starts (a small file, a busy machine), the pass
 * copies the original itself, as it did before there was a thread: `claim` decides which, once.
 */
export class ArchiveCopy {
  private readonly thread: ClaimedThread<ArchivedOriginal | { moved: true }>;
  private source: number | null;
  private going = false;

  private constructor(
    readonly incoming: IncomingObject,
    source: number,
    private readonly archiveRoot: string,
  ) {
    this.source = source;
    // Both descriptors are opened here: a process's descriptors are shared by its threads.
    this.thread = new ClaimedThread<ArchivedOriginal | { moved: true }>(PROLOGUE, COPY, { source, target: incoming.descriptor, chunk: 1 << 20 });
  }

  /**
   * Starts copying `path` into a new incoming object of `archive`, or returns null when the file is
   * too small to be worth a thread or `when` is 'never' (the fork pass copies it). 'always' (tests)
   * copies on the thread whatever the size, and returns once the thread has stamped the file.
   */
  static start(archive: Archive, path: string, when: ArchiveThread = 'auto'): ArchiveCopy | null {
    if (when === 'never') return null;
    let source: number;
    try {
      source = openSourceReadOnly(path);
    } catch {
      // The plan reports a file it cannot read.
      return null;
    }
    let copy: ArchiveCopy;
    try {
      if (when === 'auto' && fstatSync(source).size < MIN_THREADED_BYTES) {
        closeSync(source);
        return null;
      }
      copy = new ArchiveCopy(archive.incoming(), source, archive.root);
    } catch (error) {
      closeSync(source);
      throw error;
    }
    if (when === 'always') copy.thread.awaitClaim();
    return copy;
  }

  /**
   * Decides who copies, once: true when the thread has begun (it will finish: wait for it), false when
   * the fork pass must copy into `incoming` itself.
   */
  claim(): boolean {
    const threaded = this.thread.claim();
    if (!threaded) this.closeSource();
    else if (!this.going) {
      // The fork is to be written: the thread goes on from hashing to copying.
      this.going = true;
      this.thread.poke();
    }
    return threaded;
  }

  /**
   * What the thread archived, once it is done, or null when the original changed between its hash
   * and its copy (the attempt starts again). A failed write is the fork's failure (nothing is kept);
   * a cancelled job stops the thread and removes its object.
   */
  wait(job: ForkJob): ArchivedOriginal | null {
    if (!this.claim()) throw new Error('the archive copy was left to the fork pass');
    let result: ArchivedOriginal | { moved: true } | { error: string };
    try {
      result = this.thread.wait(() => job.throwIfCancelled());
    } catch (error) {
      this.discard();
      throw error;
    }
    this.closeSource();
    if ('error' in result) {
      this.discard();
      throw new ForkError('unwritable', `cannot write in the archive ${this.archiveRoot} (${result.error}); nothing was written`);
    }
    return 'moved' in result ? null : result;
  }

  /** Stops the thread (waiting for it to let go of the files) and removes the incoming object. */
  discard(): void {
    this.thread.stop();
    this.closeSource();
    this.incoming.discard();
  }

  private closeSource(): void {
    if (this.source === null) return;
    const fd = this.source;
    this.source = null;
    closeSync(fd);
  }
}
