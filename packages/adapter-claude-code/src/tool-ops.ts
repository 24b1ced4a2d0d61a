import type { ReadOp, Source, ToolOp } from '@glassbox/core';
import { parseNumberedText } from './numbered-text';
import { isObject, num, str, type Json, type JsonObject } from './record-types';
import { sha256, utf8Bytes } from './hash';

/** Turns a path into a label relative to the working directory when it lies inside it. */
export function relativeLabel(path: string, cwd: string | null): string {
  if (cwd) {
    for (const sep of ['/', '\\']) {
      const prefix = cwd.endsWith(sep) ? cwd : cwd + sep;
      if (path.startsWith(prefix)) return path.slice(prefix.length);
    }
  }
  return path;
}

const NUMBERED_LINE_CAP = 1990;

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? oneLine.slice(0, max - 1) + '…' : oneLine;
}

/** What a tool call is, from its name and input alone. */
export function opFromInput(name: string, input: JsonObject, cwd: string | null): { op: ToolOp; source: Source } {
  const filePath = str(input['file_path']) ?? str(input['notebook_path']) ?? str(input['path']);
  switch (name) {
    case 'Read': {
      const path = str(input['file_path']) ?? '';
      const offset = num(input['offset']);
      const limit = num(input['limit']);
      const op: ReadOp = {
        kind: 'read',
        path,
        startLine: offset !== undefined && offset > 0 ? offset : 1,
        numLines: limit ?? 0,
        totalLines: null,
        full: false,
        unchanged: false,
        truncated: false,
      };
      return { op, source: fileSource(path, cwd) };
    }
    case 'Write': {
      const path = str(input['file_path']) ?? '';
      const content = str(input['content']) ?? '';
      return {
        op: { kind: 'write', path, contentHash: sha256(content), contentBytes: utf8Bytes(content) },
        source: fileSource(path, cwd),
      };
    }
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit': {
      const path = filePath ?? '';
      return { op: { kind: 'edit', path, heavyBytes: editPayloadBytes(input) }, source: fileSource(path, cwd) };
    }
    case 'Bash':
    case 'BashOutput':
    case 'PowerShell': {
      const command = str(input['command']) ?? str(input['bash_id']) ?? name;
      return { op: { kind: 'command', command }, source: { type: 'command', label: clip(command, 80) } };
    }
    case 'Grep':
    case 'Glob':
    case 'LS': {
      const pattern = str(input['pattern']) ?? filePath ?? '';
      const where = filePath ? ` in ${relativeLabel(filePath, cwd)}` : '';
      return { op: { kind: 'search', pattern }, source: { type: 'search', label: clip(`${name} ${pattern}${where}`, 80) } };
    }
    case 'WebFetch':
    case 'WebSearch': {
      const url = str(input['url']) ?? str(input['query']) ?? '';
      return { op: { kind: 'fetch', url }, source: { type: 'url', label: clip(url, 80) } };
    }
    case 'Task':
    case 'Agent': {
      const description = str(input['description']) ?? str(input['subagent_type']) ?? 'subagent';
      const prompt = str(input['prompt']);
      const op: ToolOp = { kind: 'subagent', description };
      // A copy of the start (not a slice that would keep the whole prompt alive).
      if (prompt) op.promptStart = prompt.slice(0, 200).split('').join('');
      return { op, source: { type: 'subagent', label: clip(description, 80) } };
    }
    default: {
      if (name.startsWith('mcp__')) {
        const [, server = '', ...rest] = name.split('__');
        const tool = rest.join('__');
        return { op: { kind: 'mcp', server, tool }, source: { type: 'mcp', label: `${server}/${tool}` } };
      }
      return { op: { kind: 'other', name }, source: { type: 'tool', label: name } };
    }
  }
}

/** Bytes of the fields a fork may tombstone in an edit's input. */
function editPayloadBytes(input: JsonObject): number {
  let n = 0;
  for (const key of ['new_string', 'new_source']) {
    const v = str(input[key]);
    if (v !== undefined) n += utf8Bytes(v);
  }
  const edits = input['edits'];
  if (Array.isArray(edits)) {
    for (const e of edits) if (isObject(e)) n += utf8Bytes(str(e['new_string']) ?? '');
  }
  return n;
}

function fileSource(path: string, cwd: string | null): Source {
  return { type: 'file', label: relativeLabel(path, cwd), path };
}

/**
 * Completes a read from its result: the structured mirror when present (2.x), else the numbered text.
 * Returns a new op; the input-only op is kept when nothing can be learnt. `hashCapture` gives the op
 * its captured text's hash (now, unless the caller holds it until the read is known to stay).
 */
export function refineRead(op: ReadOp, mirror: Json | undefined, resultText: string | null, keepText = true, hashCapture: (out: ReadOp, text: string) => void = hashNow): ReadOp {
  if (isObject(mirror)) {
    const type = str(mirror['type']);
    const file = mirror['file'];
    if (type === 'file_unchanged') return { ...op, unchanged: true, numLines: 0 };
    if (type === 'text' && isObject(file)) {
      const content = str(file['content']);
      const startLine = num(file['startLine']) ?? op.startLine;
      const numLines = num(file['numLines']) ?? 0;
      const totalLines = num(file['totalLines']) ?? null;
      const truncated = file['truncatedByTokenCap'] === true || mirror['truncatedByTokenCap'] === true;
      const full = !truncated && startLine === 1 && totalLines !== null && numLines >= totalLines;
      const out: ReadOp = { ...op, startLine, numLines, totalLines, truncated, full };
      if (content !== undefined) {
        if (keepText) out.capturedText = content;
        hashCapture(out, content);
      }
      return out;
    }
    if (type !== undefined && type !== 'text') return { ...op, numLines: 0 };
  }
  if (resultText === null) return op;
  const parsed = parseNumberedText(resultText);
  if (!parsed) return op;
  // Old clients cut long lines in the numbered text: such a capture is not the file's bytes.
  if (parsed.lines.some((l) => l.length >= NUMBERED_LINE_CAP)) return { ...op, startLine: parsed.startLine, numLines: parsed.lines.length };
  const text = parsed.lines.join('\n');
  // Without a mirror the file's length is unknown, so the read is never taken as the whole file.
  const out: ReadOp = {
    ...op,
    startLine: parsed.startLine,
    numLines: parsed.lines.length,
    totalLines: null,
    full: false,
    truncated: resultText.startsWith('<system-reminder>'),
  };
  hashCapture(out, text);
  if (keepText) out.capturedText = text;
  return out;
}

function hashNow(out: ReadOp, text: string): void {
  out.capturedHash = sha256(text);
}

/** The captured text of a read from its raw result record, as `refineRead` derives it. */
export function capturedTextFromRecord(record: unknown, toolUseId: string): string | null {
  if (!isObject(record)) return null;
  const message = record['message'];
  const content = isObject(message) ? message['content'] : undefined;
  if (!Array.isArray(content)) return null;
  for (const block of content) {
    if (!isObject(block) || block['type'] !== 'tool_result' || block['tool_use_id'] !== toolUseId) continue;
    const raw = block['content'];
    const text = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.map((b) => (isObject(b) ? (str(b['text']) ?? '') : '')).join('\n') : null;
    const base: ReadOp = { kind: 'read', path: '', startLine: 1, numLines: 0, totalLines: null, full: false, unchanged: false, truncated: false };
    return refineRead(base, record['toolUseResult'], text, true).capturedText ?? null;
  }
  return null;
}
