import { isObject, type Json, type JsonObject } from '../record-types';
import type { RemovedPayload } from './types';

/** Large input fields of the file-writing tools, which a fork may tombstone (fork-check allows exactly these). */
export const WRITE_TOOL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Write: ['content'],
  Edit: ['new_string'],
  MultiEdit: ['edits[].new_string'],
  NotebookEdit: ['new_source'],
};

export function textOf(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function utf8(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** UTF-8 bytes of a tool_result's content as the model sees it (text parts; other parts by their JSON). */
export function payloadBytes(value: Json | undefined): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string') return utf8(value);
  if (Array.isArray(value)) {
    let n = 0;
    for (const part of value) {
      if (isObject(part) && part['type'] === 'text' && typeof part['text'] === 'string') n += utf8(part['text']);
      else n += utf8(JSON.stringify(part));
    }
    return n;
  }
  return utf8(JSON.stringify(value));
}

/**
 * Replaces the input fields of a Write/Edit/MultiEdit/NotebookEdit tool_use with the tombstone,
 * each only when the tombstone is shorter than what it replaces. Mutates `input`.
 */
export function tombstoneToolInput(name: string, input: JsonObject, tombstone: string, at: string): RemovedPayload[] {
  const removed: RemovedPayload[] = [];
  const take = (obj: JsonObject, key: string, path: string): void => {
    const v = obj[key];
    if (typeof v !== 'string' || tombstone.length >= v.length) return;
    removed.push({ path, text: v, sentToModel: true });
    obj[key] = tombstone;
  };
  for (const field of WRITE_TOOL_FIELDS[name] ?? []) {
    if (field === 'edits[].new_string') {
      const edits = input['edits'];
      if (!Array.isArray(edits)) continue;
      edits.forEach((e, i) => {
        if (isObject(e)) take(e, 'new_string', `${at}.input.edits[${i}].new_string`);
      });
    } else take(input, field, `${at}.input.${field}`);
  }
  return removed;
}

/**
 * Replaces the client-side mirror (`toolUseResult`) of a tombstoned result: for Read the captured
 * `file.content`; for Bash `stdout` (and `stderr`); for other tools, any field that is a verbatim
 * copy of the result text (Grep `content`, WebFetch `result`, an Agent's `content` array).
 * Never sent to the model, but it holds the same bytes. Mutates `mirror`.
 */
export function tombstoneMirror(
  toolName: string,
  mirror: JsonObject,
  originalContent: Json,
  tombstone: string,
): RemovedPayload[] {
  const removed: RemovedPayload[] = [];
  const replaceString = (obj: JsonObject, key: string, path: string, value: string): void => {
    const v = obj[key];
    if (typeof v !== 'string' || v.length <= value.length) return;
    removed.push({ path, text: v, sentToModel: false });
    obj[key] = value;
  };
  const file = mirror['file'];
  if (toolName === 'Read' && isObject(file)) {
    replaceString(file, 'content', 'toolUseResult.file.content', tombstone);
    // 2.1.33x adds a "PARTIAL view" system note for a token-capped read whose text lacks its own; a
    // tombstone is no partial view of anything, so the flag goes with the text.
    if (file['truncatedByTokenCap'] === true) {
      removed.push({ path: 'toolUseResult.file.truncatedByTokenCap', text: 'true', sentToModel: false });
      delete file['truncatedByTokenCap'];
    }
    return removed;
  }
  if (toolName === 'Bash' || toolName === 'BashOutput' || toolName === 'PowerShell') {
    replaceString(mirror, 'stdout', 'toolUseResult.stdout', tombstone);
    replaceString(mirror, 'stderr', 'toolUseResult.stderr', '');
    return removed;
  }
  if (toolName === 'Grep') replaceString(mirror, 'content', 'toolUseResult.content', tombstone);
  for (const [key, v] of Object.entries(mirror)) {
    if (typeof v === 'string' && typeof originalContent === 'string' && v === originalContent) {
      replaceString(mirror, key, `toolUseResult.${key}`, tombstone);
    } else if (Array.isArray(v) && Array.isArray(originalContent) && key === 'content') {
      const text = JSON.stringify(v);
      if (text.length > tombstone.length + 24) {
        removed.push({ path: 'toolUseResult.content', text, sentToModel: false });
        mirror[key] = [{ type: 'text', text: tombstone }];
      }
    }
  }
  return removed;
}
