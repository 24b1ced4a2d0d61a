import { closeSync, fstatSync } from 'node:fs';
import { readWhole } from '@glassbox/file-io';
import { ForkError, openSourceReadOnly } from '../shared/atomic';
import { sha256Hex } from './archive';

export interface SourceSnapshot {
  bytes: Buffer;
  sha256: string;
  lines: string[];
  endsWithNewline: boolean;
}

/** Reads a file through a read-only descriptor: the original is never opened for writing. */
function readReadOnly(path: string): Buffer {
  const fd = openSourceReadOnly(path);
  try {
    return readWhole(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

/** Splits a transcript into lines, keeping exact bytes: a file that is not valid UTF-8 is refused. */
export function snapshotOf(path: string, bytes: Buffer): SourceSnapshot {
  const text = bytes.toString('utf8');
  if (Buffer.byteLength(text, 'utf8') !== bytes.length || !Buffer.from(text, 'utf8').equals(bytes)) {
    throw new ForkError('source_not_utf8', `${path} is not valid UTF-8; a fork could not keep its bytes exactly, so none is made`);
  }
  const endsWithNewline = text.endsWith('\n');
  const lines = text.split('\n');
  if (endsWithNewline) lines.pop();
  return { bytes, sha256: sha256Hex(bytes), lines, endsWithNewline };
}

export function readSource(path: string): SourceSnapshot {
  return snapshotOf(path, readReadOnly(path));
}

export function joinLines(lines: readonly string[], endsWithNewline: boolean): string {
  return lines.join('\n') + (endsWithNewline && lines.length > 0 ? '\n' : '');
}
