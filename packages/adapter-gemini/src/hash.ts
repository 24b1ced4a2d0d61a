import { sha256 as nobleSha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';

// The main entry runs anywhere (the renderer too): hashing and byte counts use no Node API.
const encoder = new TextEncoder();

/** sha-256 (hex) of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return bytesToHex(nobleSha256(encoder.encode(text)));
}

/** UTF-8 length of a string, without encoding it. */
export function byteLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
