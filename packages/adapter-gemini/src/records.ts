import { isObject, str, type JsonObject } from '@glassbox/core';

/** Where a record is in its file: 1-based line, byte offset and byte length (without the newline). */
export interface Place {
  line: number;
  offset: number;
  length: number;
}

/** One message as the client will load it, and the record it was last written in. */
export interface PlacedMessage {
  id: string;
  message: JsonObject;
  at: Place;
  /** Its index inside a full-replace record's list, when it came from one. */
  inList?: number;
}

/** The session-level fields (the first record of a log, or the document's own keys, merged as the client does). */
export interface ChatMeta {
  sessionId: string | null;
  projectHash: string | null;
  startTime: string | null;
  lastUpdated: string | null;
  summary: string | null;
  kind: 'main' | 'subagent' | null;
  directories: string[];
}

export function emptyMeta(): ChatMeta {
  return { sessionId: null, projectHash: null, startTime: null, lastUpdated: null, summary: null, kind: null, directories: [] };
}

/** Folds session-level fields into the meta, later values winning (the client spreads them in order). */
export function mergeMeta(meta: ChatMeta, fields: JsonObject): void {
  const sid = str(fields['sessionId']);
  if (sid !== undefined) meta.sessionId = sid;
  const ph = str(fields['projectHash']);
  if (ph !== undefined) meta.projectHash = ph;
  const st = str(fields['startTime']);
  if (st !== undefined) meta.startTime = st;
  const lu = str(fields['lastUpdated']);
  if (lu !== undefined) meta.lastUpdated = lu;
  const sm = str(fields['summary']);
  if (sm !== undefined) meta.summary = sm;
  const kind = str(fields['kind']);
  if (kind === 'main' || kind === 'subagent') meta.kind = kind;
  const dirs = fields['directories'];
  if (Array.isArray(dirs)) meta.directories = dirs.filter((d): d is string => typeof d === 'string');
}

/** The kinds of record a chat log holds (see docs/gemini/format.md). */
export type RecordKind = 'message' | 'set' | 'rewind' | 'meta' | 'unknown';

/** Classifies a record the way the client's loader does, in its order of tests. */
export function recordKind(r: JsonObject): RecordKind {
  if (typeof r['$rewindTo'] === 'string') return 'rewind';
  if (typeof r['id'] === 'string') return 'message';
  if (isObject(r['$set'])) return 'set';
  if (typeof r['sessionId'] === 'string' && typeof r['projectHash'] === 'string') return 'meta';
  return 'unknown';
}

/** A message's type: `user`, `gemini`, `info`, `error`, `warning` (anything else is kept as `other`). */
export function messageType(m: JsonObject): 'user' | 'gemini' | 'info' | 'error' | 'warning' | 'other' {
  const t = str(m['type']);
  return t === 'user' || t === 'gemini' || t === 'info' || t === 'error' || t === 'warning' ? t : 'other';
}
