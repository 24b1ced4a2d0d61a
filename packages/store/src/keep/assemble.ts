import { sha256Hex } from '../fork/archive';
import { KeepError } from './errors';
import type { KeptArchive } from './kept-archive';
import type { KeptFile } from './manifest';

/**
 * A kept file's bytes from its chunks: each chunk checked against its name as it is read, then the
 * whole against the file's own sha-256 and size. Nothing that fails either check is returned.
 */
export function assemble(archive: KeptArchive, file: KeptFile, label: string): Buffer {
  const parts = file.chunks.map(([sha, len]) => archive.chunks.get(sha, len));
  const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, file.bytes);
  const sha = sha256Hex(bytes);
  if (bytes.length !== file.bytes || sha !== file.sha256) {
    throw new KeepError('archive_corrupt', `the kept copy of ${label} does not match its manifest (sha-256 ${sha.slice(0, 16)}…, expected ${file.sha256.slice(0, 16)}…); it was not used`);
  }
  return bytes;
}
