import type { ReadOp, ToolCall } from '@glassbox/core';
import { failed, rangeOf, type FileEvent } from './file-events';
import type { ClassRule } from './rule';

/**
 * stale-superseded: a later event makes this one redundant — a later full, untruncated read or a
 * successful Write of the whole file; for a read, also a later read whose range covers it with the
 * same text. An Edit is not a read, and a partial read never covers a different range.
 */
export const staleSupersededRule: ClassRule<'stale-superseded'> = {
  class: 'stale-superseded',
  stage: 20,
  apply(ctx) {
    for (const [path, events] of ctx.fileEvents()) {
      events.forEach((ev, i) => {
        if (failed(ev)) return;
        const by = supersededBy(ev, events.slice(i + 1), (c) => ctx.capturedOf(c));
        if (!by) return;
        const ref = { ...ctx.refOf(by.seg), kind: by.type === 'write' ? ('write' as const) : ('read' as const) };
        ctx.mark(ev.seg, 'stale-superseded', { path, range: rangeOf(ev), by: by.type === 'read' ? { ...ref, range: rangeOf(by) } : ref });
      });
    }
  },
};

function supersededBy(ev: FileEvent, later: FileEvent[], capturedOf: (call: ToolCall) => string | null): FileEvent | null {
  let found: FileEvent | null = null;
  for (const next of later) {
    if (failed(next)) continue;
    if (next.type === 'write') {
      found = next;
      continue;
    }
    if (next.type !== 'read') continue;
    const op = next.call.op as ReadOp;
    if (op.full && !op.truncated && op.capturedHash !== undefined) {
      found = next;
      continue;
    }
    if (ev.type === 'read' && coversWithSameText(ev.call.op as ReadOp, capturedOf(ev.call), op, capturedOf(next.call))) found = next;
  }
  return found;
}

function coversWithSameText(earlier: ReadOp, earlierText: string | null, later: ReadOp, laterText: string | null): boolean {
  if (earlierText === null || laterText === null) return false;
  const e0 = earlier.startLine;
  const e1 = earlier.startLine + earlier.numLines - 1;
  const l0 = later.startLine;
  const l1 = later.startLine + later.numLines - 1;
  if (l0 > e0 || l1 < e1) return false;
  const lines = laterText.split('\n');
  const slice = lines.slice(e0 - l0, e1 - l0 + 1).join('\n');
  return slice === earlierText;
}
