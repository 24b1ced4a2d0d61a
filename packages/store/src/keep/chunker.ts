/**
 * Content-defined chunking (FastCDC, Xia et al. 2016, with normalised chunking): a cut is placed where
 * a rolling "gear" hash of the last bytes matches a mask, so a cut depends only on the bytes since the
 * previous cut. Appending to a file therefore leaves every earlier cut where it was, and an edit moves
 * only the cuts around it: a kept session that grew is stored as its new tail, not again in full.
 *
 * The gear table and the sizes are part of the archive's format: changing them costs deduplication
 * with what is already stored (never correctness — every chunk is named by its own hash).
 */

export interface ChunkSizes {
  min: number;
  avg: number;
  max: number;
}

/** Measured on the real corpus kept while growing (see scripts/bench/archive.ts). */
export const CHUNK_SIZES: ChunkSizes = { min: 4 * 1024, avg: 16 * 1024, max: 64 * 1024 };

/** 256 pseudo-random 32-bit values from a fixed seed (xorshift32): the same on every machine, forever. */
const GEAR: Uint32Array = (() => {
  const t = new Uint32Array(256);
  let x = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    t[i] = x;
  }
  return t;
})();

/**
 * A mask of the hash's top `bits` bits: the gear hash shifts left, so bit k depends on the last k + 1
 * bytes, and the top bits on the widest window.
 */
function mask(bits: number): number {
  return bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
}

function masksFor(avg: number): { small: number; large: number } {
  const bits = Math.round(Math.log2(avg));
  return { small: mask(bits + 2), large: mask(bits - 2) };
}

/** The length of the chunk starting at `start` (FastCDC's cut point). */
function cutAt(data: Uint8Array, start: number, end: number, sizes: ChunkSizes, small: number, large: number): number {
  const n = end - start;
  if (n <= sizes.min) return n;
  const limit = Math.min(n, sizes.max);
  const normal = Math.min(limit, sizes.avg);
  let h = 0;
  let i = sizes.min;
  // Harder to cut before the average size, easier after: chunk sizes cluster around the average.
  for (; i < normal; i++) {
    h = ((h << 1) + (GEAR[data[start + i] as number] as number)) >>> 0;
    if ((h & small) === 0) return i + 1;
  }
  for (; i < limit; i++) {
    h = ((h << 1) + (GEAR[data[start + i] as number] as number)) >>> 0;
    if ((h & large) === 0) return i + 1;
  }
  return limit;
}

/** The chunk lengths of `data[from..]`, in order; `from` must be a cut of the whole (0, or the end of an earlier chunk). */
export function chunkLengths(data: Uint8Array, from = 0, sizes: ChunkSizes = CHUNK_SIZES): number[] {
  const { small, large } = masksFor(sizes.avg);
  const out: number[] = [];
  let at = from;
  while (at < data.length) {
    const len = cutAt(data, at, data.length, sizes, small, large);
    out.push(len);
    at += len;
  }
  return out;
}
