import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '@glassbox/core';
import { codexFormat } from './agent';
import { codexLocator } from './node/locator';
import { allRollouts, linesOf } from '@glassbox/test-support/codex/corpus';

/** What the analysis reads of a session: the window's records in order, the calls and the problems. */
function shape(session: Session) {
  return {
    id: session.id,
    order: session.order,
    nodes: [...session.nodes.values()].map((n) => [n.uuid, n.kind, n.line, n.offset, n.length, n.blocks.map((b) => [b.kind, b.bytes, b.tokens])]),
    calls: [...session.toolCalls.values()].map((c) => [c.id, c.name, c.resultUuid, c.op]),
    problems: session.problems.map((p) => p.message),
  };
}

describe('parsing rollout lines held in memory', () => {
  it.each(allRollouts().map((p) => [basename(p), p]))('reads %s as the file reader does, captured reads included', (_name, path) => {
    const fromFile = codexLocator.parseFile(path);
    const fromLines = codexFormat.parseLines(linesOf(path), { path, fallbackId: fromFile.id });
    expect(shape(fromLines)).toEqual(shape(fromFile));
    const reads = [...fromFile.toolCalls.values()].filter((c) => c.op.kind === 'read' && c.op.capturedHash !== undefined);
    const texts = reads.map((c) => fromLines.capturedTextOf?.(c) ?? null);
    expect(texts).toEqual(reads.map((c) => fromFile.capturedTextOf?.(c) ?? null));
  });

  it('reads back the captured text of pure reads from the lines (the corpus has some)', () => {
    const back = allRollouts().flatMap((path) => {
      const session = codexFormat.parseLines(linesOf(path), { path });
      return [...session.toolCalls.values()].filter((c) => c.op.kind === 'read' && c.op.capturedHash !== undefined).map((c) => session.capturedTextOf?.(c) ?? null);
    });
    expect(back.length).toBeGreaterThan(0);
    expect(back.filter((t) => t !== null).length).toBe(back.length);
  });
});
