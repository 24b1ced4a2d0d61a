import type { LineRange, ReadOp, Segment, Session, ToolCall } from '@glassbox/core';

/** A read (its result) or a write or edit (its input) of one file. */
export interface FileEvent {
  /** Index of the segment in the window. */
  pos: number;
  call: ToolCall;
  seg: Segment;
  type: 'read' | 'write' | 'edit';
}

/**
 * Reads (results) and writes/edits (inputs) of each file, in conversation order. A read whose result
 * is already a tombstone is not in the window any more, so it is no event; a tombstoned Write or Edit
 * still happened (the file was changed), so it is.
 */
export function collectFileEvents(session: Session, segments: readonly Segment[]): Map<string, FileEvent[]> {
  const byPath = new Map<string, FileEvent[]>();
  segments.forEach((seg, pos) => {
    if (!seg.toolUseId) return;
    const call = session.toolCalls.get(seg.toolUseId);
    if (!call) return;
    const op = call.op;
    let type: FileEvent['type'] | null = null;
    if (op.kind === 'read' && seg.kind === 'tool-result' && !op.unchanged && op.numLines > 0 && seg.class !== 'tombstone') type = 'read';
    else if (op.kind === 'write' && seg.kind === 'tool-input' && call.resultUuid) type = 'write';
    else if (op.kind === 'edit' && seg.kind === 'tool-input' && call.resultUuid) type = 'edit';
    if (!type || !('path' in op) || !op.path) return;
    const list = byPath.get(op.path);
    const ev: FileEvent = { pos, call, seg, type };
    if (list) list.push(ev);
    else byPath.set(op.path, [ev]);
  });
  return byPath;
}

export function rangeOf(ev: FileEvent): LineRange {
  const op = ev.call.op;
  if (op.kind === 'read') return readRange(op);
  return { startLine: 1, endLine: 0, full: true };
}

function readRange(op: ReadOp): LineRange {
  return { startLine: op.startLine, endLine: op.startLine + Math.max(op.numLines, 1) - 1, full: op.full };
}

/** Events that failed prove nothing, either way. */
export function failed(ev: FileEvent): boolean {
  return ev.call.isError || ev.seg.isError === true;
}
