import { createHash } from 'node:crypto';
import type { JsonObject, ReadOp, Source, ToolOp } from '@glassbox/core';

/**
 * Claude Code's tools as a request shows them: what each call did, from its name and input, and for
 * a Read what its result captured. A request carries no client-side mirror of a result (the
 * transcript's `toolUseResult`), so a read's range and text come from the numbered lines the model
 * was sent; the Claude Code adapter reads the same tools from transcripts (`tool-ops.ts` there), and
 * a test checks that both read the same operations from one real run (docs/proxy.md).
 */

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? oneLine.slice(0, max - 1) + '…' : oneLine;
}

/** A path relative to the working directory when it lies inside it. */
function relativeLabel(path: string, cwd: string | null): string {
  if (cwd) {
    const prefix = cwd.endsWith('/') ? cwd : cwd + '/';
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  }
  return path;
}

function fileSource(path: string, cwd: string | null): Source {
  return { type: 'file', label: relativeLabel(path, cwd), path };
}

/** The string fields of a file-writing tool's input that a tombstone may replace (as forks do). */
export const WRITE_TOOL_FIELDS: Readonly<Record<string, string>> = { Write: 'content', Edit: 'new_string', NotebookEdit: 'new_source' };

export function opFromInput(name: string, input: JsonObject, cwd: string | null): { op: ToolOp; source: Source } {
  switch (name) {
    case 'Read': {
      const path = str(input['file_path']) ?? '';
      const offset = num(input['offset']);
      const op: ReadOp = {
        kind: 'read',
        path,
        startLine: offset !== undefined && offset > 0 ? offset : 1,
        numLines: num(input['limit']) ?? 0,
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
      return { op: { kind: 'write', path, contentHash: sha256(content), contentBytes: utf8Bytes(content) }, source: fileSource(path, cwd) };
    }
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit': {
      const path = str(input['file_path']) ?? str(input['notebook_path']) ?? '';
      const field = WRITE_TOOL_FIELDS[name];
      const heavy = field ? str(input[field]) : undefined;
      return { op: { kind: 'edit', path, heavyBytes: heavy === undefined ? 0 : utf8Bytes(heavy) }, source: fileSource(path, cwd) };
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
      const where = str(input['path']);
      const pattern = str(input['pattern']) ?? where ?? '';
      return { op: { kind: 'search', pattern }, source: { type: 'search', label: clip(`${name} ${pattern}${where ? ` in ${relativeLabel(where, cwd)}` : ''}`, 80) } };
    }
    case 'WebFetch':
    case 'WebSearch': {
      const url = str(input['url']) ?? str(input['query']) ?? '';
      return { op: { kind: 'fetch', url }, source: { type: 'url', label: clip(url, 80) } };
    }
    case 'Task':
    case 'Agent': {
      const description = str(input['description']) ?? str(input['subagent_type']) ?? 'subagent';
      return { op: { kind: 'subagent', description }, source: { type: 'subagent', label: clip(description, 80) } };
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

/** Numbered lines: `12\tcode` (2.x) or `    12→code` (1.x). */
const NUMBERED = /^\s*(\d+)(?:\t|\u2192)(.*)$/;
/** Clients cut long lines in the numbered text: a line this long may not be the file's bytes. */
const LINE_CAP = 1990;
const UNCHANGED = /^(?:Wasted call — file unchanged since your last Read|File unchanged since last read)/;
const TRAILING_REMINDER = /^\n*<system-reminder>[\s\S]*<\/system-reminder>\s*$/;

/**
 * Completes a read from the text its result sent: the range and raw text of the numbered lines, and
 * whether it is the whole file. It is the whole file only when nothing else could be true: no offset
 * or limit was asked, the lines start at 1, nothing but a trailing reminder follows them, no line is
 * long enough to have been cut, and there are fewer lines than a read returns by default (the Read
 * tool's description in the same request says how many). Otherwise the read is partial, or unknown.
 */
export function refineRead(op: ReadOp, input: JsonObject, text: string, defaultLines: number | null): ReadOp {
  if (UNCHANGED.test(text)) return { ...op, unchanged: true, numLines: 0 };
  const truncated = text.startsWith('<system-reminder>');
  let body = text;
  if (truncated) {
    const end = body.indexOf('</system-reminder>');
    if (end < 0) return op;
    body = body.slice(end + '</system-reminder>'.length).replace(/^\n+/, '');
  }
  const rows = body.split('\n');
  const lines: string[] = [];
  let start = -1;
  let consumed = 0;
  for (const row of rows) {
    const m = NUMBERED.exec(row);
    if (!m) break;
    const n = Number(m[1]);
    if (start < 0) start = n;
    if (n !== start + lines.length) break;
    lines.push(m[2] ?? '');
    consumed++;
  }
  if (start < 0 || lines.length === 0) return op;
  const numLines = lines.length;
  if (lines.some((l) => l.length >= LINE_CAP)) return { ...op, startLine: start, numLines };
  const captured = lines.join('\n');
  const rest = rows.slice(consumed).join('\n');
  const askedRange = input['offset'] !== undefined || input['limit'] !== undefined || input['pages'] !== undefined;
  const full = !truncated && !askedRange && start === 1 && (rest === '' || TRAILING_REMINDER.test(rest)) && defaultLines !== null && numLines < defaultLines;
  return {
    ...op,
    startLine: start,
    numLines,
    totalLines: full ? numLines : null,
    full,
    truncated,
    capturedText: captured,
    capturedHash: sha256(captured),
  };
}
