import { sha256 as nobleSha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';

// The main entry runs anywhere (the renderer too), so hashing and byte counts use no Node API by
// default; the Node side installs Node's native sha-256 and byte count (the same results, many times faster).
const encoder = new TextEncoder();

/** sha-256 (hex) of a string's UTF-8 bytes in plain JavaScript. */
export function portableSha256(text: string): string {
  return bytesToHex(nobleSha256(encoder.encode(text)));
}

let digest: (text: string) => string = portableSha256;

/** sha-256 (hex) of a string's UTF-8 bytes, the same digest Node's crypto gives. */
export function sha256(text: string): string {
  return digest(text);
}

/** Replaces the portable sha-256 by a native one; it must give the same hex digest of the UTF-8 bytes. */
export function useSha256(native: (text: string) => string): void {
  digest = native;
}

/** Replaces the portable UTF-8 byte count by a native one (Node's Buffer.byteLength). */
export function useUtf8Bytes(native: (text: string) => number): void {
  countBytes = native;
}

export function utf8Bytes(text: string): number {
  return countBytes(text);
}

let countBytes: (text: string) => number = portableUtf8Bytes;

export function portableUtf8Bytes(text: string): number {
  // Counting without encoding: cheaper than TextEncoder for the sizes the parser sees.
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
