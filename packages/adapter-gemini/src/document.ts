import { isObject, type JsonObject, type Problem } from '@glassbox/core';
import { byteLength } from './hash';
import { firstLook, RESTORE_POINT, SAVED_CHAT } from './recognise';
import { emptyMeta, mergeMeta, type ChatMeta, type Place, type PlacedMessage } from './records';

/** A line of the file as the reader gave it. */
export interface DocLine {
  text: string;
  line: number;
  offset: number;
}

export interface ParsedDocument {
  meta: ChatMeta;
  messages: PlacedMessage[];
  problems: Problem[];
  /** Keys of the document besides the known ones (kept, never fatal). */
  unknownKeys: string[];
}

const KNOWN_KEYS = new Set(['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'messages', 'summary', 'directories', 'kind', 'memoryScratchpad']);

/**
 * Reads a chat document (Gemini CLI up to 0.38: one JSON object, pretty-printed, rewritten whole on
 * every change). The client writes it in place, so a read can meet it half-written: anything that is
 * not one complete JSON object is refused with the line where it breaks, and nothing of it is used.
 * Each message is placed at the line and byte offset where its object starts, for the views that
 * point into the file.
 */
export function parseDocument(lines: readonly DocLine[], path: string): ParsedDocument {
  const text = lines.map((l) => l.text).join('\n');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const at = errorLine(lines, text, (error as Error).message);
    return refused(path, at, `the chat document is incomplete or damaged (${(error as Error).message}); it may be half-written by a running Gemini CLI — nothing of it was read`, 'document_incomplete');
  }
  if (!isObject(value) || typeof value['sessionId'] !== 'string') {
    // Another file of the client's (a restore point, a /chat save) is named for what it is.
    const look = firstLook(lines.slice(0, 12).map((l) => l.text));
    const other = look.kind === 'other' && (look.what === RESTORE_POINT || look.what === SAVED_CHAT) ? look.what : null;
    const what = other ? `this is ${other}` : 'this JSON document is not a Gemini CLI chat (no sessionId)';
    return refused(path, lines[0]?.line ?? 1, what);
  }
  const meta = emptyMeta();
  mergeMeta(meta, value);
  const list = Array.isArray(value['messages']) ? value['messages'] : [];
  const spans = messageSpans(text);
  const placeOf = placer(lines, text);
  const messages: PlacedMessage[] = [];
  list.forEach((m, i) => {
    if (!isObject(m) || typeof m['id'] !== 'string') return;
    const span = spans[i];
    const at: Place = span ? placeOf(span[0], span[1]) : { line: lines[0]?.line ?? 1, offset: 0, length: 0 };
    messages.push({ id: m['id'], message: m as JsonObject, at, inList: i });
  });
  return { meta, messages, problems: [], unknownKeys: Object.keys(value).filter((k) => !KNOWN_KEYS.has(k)) };
}

function refused(path: string, line: number, message: string, code: 'not_a_transcript' | 'document_incomplete' = 'not_a_transcript'): ParsedDocument {
  return { meta: emptyMeta(), messages: [], unknownKeys: [], problems: [{ code, severity: 'error', file: path, line, message: `${path}:${line}: ${message}` }] };
}

/** The line a JSON.parse error points at ("position N"), else the last line. */
function errorLine(lines: readonly DocLine[], text: string, message: string): number {
  const m = /position (\d+)/.exec(message);
  const last = lines[lines.length - 1]?.line ?? 1;
  if (!m) return last;
  const pos = Number(m[1]);
  let line = 0;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return lines[line]?.line ?? last;
}

/**
 * The [start, end) character ranges of the elements of the top-level object's "messages" array,
 * found by one scan that tracks strings and nesting (the text is known to be valid JSON).
 */
function messageSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let depth = 0;
  let inString = false;
  let keyStart = -1;
  let lastKey = '';
  let arrayDepth = -1;
  let elementStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) {
        inString = false;
        if (depth === 1 && arrayDepth < 0) lastKey = text.slice(keyStart + 1, i);
      }
      continue;
    }
    if (c === 34) {
      inString = true;
      keyStart = i;
      if (arrayDepth >= 0 && depth === arrayDepth && elementStart < 0) elementStart = i;
      continue;
    }
    if (c === 123 || c === 91) {
      if (arrayDepth >= 0 && depth === arrayDepth && elementStart < 0) elementStart = i;
      depth++;
      if (c === 91 && depth === 2 && lastKey === 'messages' && arrayDepth < 0) arrayDepth = 2;
      continue;
    }
    if (c === 125 || c === 93) {
      depth--;
      if (arrayDepth >= 0 && depth === arrayDepth && elementStart >= 0 && (c === 125 || c === 93)) {
        spans.push([elementStart, i + 1]);
        elementStart = -1;
      }
      if (arrayDepth >= 0 && depth < arrayDepth) {
        arrayDepth = -2;
      }
      continue;
    }
  }
  return spans;
}

/** Maps a character range of the joined text to the file's line, byte offset and byte length. */
function placer(lines: readonly DocLine[], text: string): (start: number, end: number) => Place {
  const starts: number[] = [];
  let c = 0;
  for (const l of lines) {
    starts.push(c);
    c += l.text.length + 1;
  }
  return (start, end) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= start) lo = mid;
      else hi = mid - 1;
    }
    const l = lines[lo] as DocLine;
    const col = start - (starts[lo] as number);
    return { line: l.line, offset: l.offset + byteLength(l.text.slice(0, col)), length: byteLength(text.slice(start, end)) };
  };
}
