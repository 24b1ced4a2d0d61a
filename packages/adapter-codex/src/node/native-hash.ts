import { createHash } from 'node:crypto';
import { useSha256, useUtf8Bytes } from '../hash';

// On Node, block hashes (duplicate detection, tombstones, captured reads) and byte counts are native.
useSha256((text) => createHash('sha256').update(text, 'utf8').digest('hex'));
useUtf8Bytes((text) => Buffer.byteLength(text, 'utf8'));
