import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { headLines } from '@glassbox/file-io';

/** How much of a log's end is read for its last `lastUpdated`: the client writes one after every message. */
const TAIL_BYTES = 256 * 1024;

const DOCUMENT_KEY = /^ {2}"lastUpdated": "([^"]+)"/;
const LOG_KEY = /"lastUpdated":"([^"]+)"/g;

/**
 * A chat's `lastUpdated` as the client reads it when it lists sessions, without reading the chat:
 * a document's own key (written among its first lines), or a log's last `$set.lastUpdated` (the
 * client writes one after each message; a session record carries one too). Null when none is found
 * (the caller falls back to the file's modification time, as the client does).
 */
export function lastUpdatedOf(path: string): number | null {
  const head = headLines(path);
  const first = head.find((l) => l.trim() !== '');
  if (first === undefined) return null;
  if (first.trim() === '{') {
    for (const l of head.slice(1, 12)) {
      const m = DOCUMENT_KEY.exec(l);
      if (m) return timeOf(m[1] as string);
    }
    return null;
  }
  const tail = tailText(path);
  let last: string | null = null;
  for (const m of tail.matchAll(LOG_KEY)) last = m[1] as string;
  return last === null ? null : timeOf(last);
}

function timeOf(iso: string): number | null {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

function tailText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return '';
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.allocUnsafe(length);
    const n = readSync(fd, buf, 0, length, size - length);
    return buf.toString('utf8', 0, n);
  } catch {
    return '';
  } finally {
    closeSync(fd);
  }
}
