import type { AgentFormat, Segment, SegmentKind, Session } from '@glassbox/core';

/** Reads one record line back from the transcript (a file on disk, or a dropped file's bytes). */
export interface RecordLines {
  line(offset: number, length: number): string;
}

/** Where a block's text is: its record's line, the block in it, and what to show when it cannot be read. */
export interface BlockRef {
  offset: number;
  length: number;
  blockIndex: number;
  kind: SegmentKind;
  preview: string;
  /** The node's id: which item of its line the block is of, when a line holds several (adapters say). */
  uuid?: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type FormatReaders = Partial<Pick<AgentFormat, 'recordText' | 'blockText' | 'attachmentView'>>;

/** The segment's payload as the model sees it, read from the record's own line (never from a cache). */
export function segmentContent(session: Session, segment: Segment, lines: RecordLines, format?: FormatReaders): string {
  const node = session.nodes.get(segment.uuid);
  if (!node) return segment.preview;
  return blockContent({ offset: node.offset, length: node.length, blockIndex: segment.blockIndex, kind: segment.kind, preview: segment.preview, uuid: segment.uuid }, lines, session.cwd, format);
}

/** A block's text as the model reads it: a prompt, a reply, a tool call's fields, a tool result, an attachment as sent. */
export function blockContent(ref: BlockRef, lines: RecordLines, cwd: string | null, format?: FormatReaders): string {
  const record = recordAt(ref, lines);
  if (!isObj(record)) return ref.preview;
  const message = record['message'];
  const content = isObj(message) ? message['content'] : undefined;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const block = content[ref.blockIndex];
    if (ref.kind === 'tool-input' && isObj(block)) return toolInputText(block['input'] ?? block);
    if (block !== undefined) return blockText(block);
  }
  if (record['attachment'] !== undefined) return format?.recordText?.(record, cwd) ?? pretty(record['attachment']);
  if (typeof record['content'] === 'string') return record['content'];
  // Another agent's record shape: its adapter reads the block, if it can.
  return format?.blockText?.(lines.line(ref.offset, ref.length), ref.blockIndex, cwd, ref.uuid) ?? ref.preview;
}

/** An attachment as a person reads it (what it is, and its content), when the agent can say; else null. */
export function attachmentContent(ref: BlockRef, lines: RecordLines, cwd: string | null, format?: FormatReaders): { what: string; text: string } | null {
  if (ref.kind !== 'attachment' || !format?.attachmentView) return null;
  const record = recordAt(ref, lines);
  return record === undefined ? null : format.attachmentView(record, cwd);
}

function recordAt(ref: BlockRef, lines: RecordLines): Json | undefined {
  if (ref.length <= 0) return undefined;
  try {
    return JSON.parse(lines.line(ref.offset, ref.length)) as Json;
  } catch {
    return undefined;
  }
}

/** A tool call's input as fields, with multi-line strings (an Edit's text, a Write's content) shown as text. */
function toolInputText(input: Json): string {
  if (!isObj(input)) return pretty(input);
  const out: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string' && v.includes('\n')) out.push(`${k}:`, ...v.split('\n').map((l) => `  ${l}`));
    else out.push(`${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return out.join('\n');
}

function blockText(block: Json): string {
  if (!isObj(block)) return typeof block === 'string' ? block : pretty(block);
  switch (block['type']) {
    case 'text':
      return str(block['text']);
    case 'thinking':
      return str(block['thinking']);
    case 'redacted_thinking':
      return '[redacted thinking: encrypted by the provider]';
    case 'tool_use':
      return toolInputText(block['input'] ?? null);
    case 'tool_result': {
      const c = block['content'];
      if (typeof c === 'string') return c;
      if (Array.isArray(c)) return c.map((part) => (isObj(part) && part['type'] === 'text' ? str(part['text']) : `[${isObj(part) ? str(part['type']) : 'part'}]`)).join('\n');
      return '';
    }
    case 'image':
      return '[image]';
    default:
      return pretty(block);
  }
}

function isObj(v: Json | undefined): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function str(v: Json | undefined): string {
  return typeof v === 'string' ? v : '';
}
function pretty(v: Json | undefined): string {
  try {
    return JSON.stringify(v, null, 2) ?? '';
  } catch {
    return String(v);
  }
}
