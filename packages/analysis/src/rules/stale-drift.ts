import type { ReadOp } from '@glassbox/core';
import { rangeDiff } from '../diff';
import { failed, rangeOf } from './file-events';
import type { ClassRule } from './rule';

/**
 * stale-drift: the lines a read captured differ from the same lines on disk now. Content is compared,
 * never timestamps; line endings, a byte-order mark and undecodable bytes never count as change.
 */
export const staleDriftRule: ClassRule<'stale-drift'> = {
  class: 'stale-drift',
  stage: 30,
  apply(ctx) {
    if (!ctx.repoExists) return;
    for (const [path, events] of ctx.fileEvents()) {
      const onDisk = ctx.onDisk(path);
      if (onDisk === null || ctx.kindOf(onDisk) !== 'file') continue;
      for (const ev of events) {
        if (ev.type !== 'read' || failed(ev) || ev.seg.class !== 'live') continue;
        const op = ev.call.op as ReadOp;
        const captured = ctx.capturedOf(ev.call);
        if (captured === null || op.capturedHash === undefined) continue;
        const disk = ctx.textOf(onDisk);
        if (disk === null) continue;
        const now = comparableText(disk, captured);
        if (now === null) continue;
        const current = sliceRange(now, op);
        if (current === captured) continue;
        ctx.mark(ev.seg, 'stale-drift', {
          path,
          checkedPath: onDisk,
          checkedAt: ctx.checkedAt,
          range: rangeOf(ev),
          capturedHash: op.capturedHash,
          currentHash: ctx.ports.hash(current),
          diff: rangeDiff(path, captured, current, op.startLine),
        });
      }
    }
  },
};

/**
 * The disk text in the form the client captured it: Windows line endings and a byte-order mark are
 * dropped when the capture has none (the client may normalise them, and they are not a change of
 * content). Null when the file does not decode cleanly.
 */
export function comparableText(disk: string, captured: string): string | null {
  let text = disk;
  if (text.includes('\uFFFD') && !captured.includes('\uFFFD')) return null;
  if (text.charCodeAt(0) === 0xfeff && captured.charCodeAt(0) !== 0xfeff) text = text.slice(1);
  if (!captured.includes('\r') && text.includes('\r\n')) text = text.replace(/\r\n/g, '\n');
  return text;
}

/** The text now on disk over the range a read captured. */
export function sliceRange(text: string, op: ReadOp): string {
  if (op.full) return text;
  const lines = text.split('\n');
  return lines.slice(op.startLine - 1, op.startLine - 1 + op.numLines).join('\n');
}
