import type { ChainNode, Session } from '@glassbox/core';
import type { JsonObject } from '../record-types';
import { TranscriptParser } from '../parser';
import { utf8Bytes } from '../hash';
import { capturedTextFromRecord } from '../tool-ops';

/**
 * Parses transcript lines held in memory (no I/O), as the streaming reader would feed them. The
 * session reads a read's captured text back from those lines (as a file's session reads it back from
 * disk), so drift and range coverage can be proven on lines about to be forked too.
 */
export function parseLines(lines: readonly string[], path: string, fallbackId = ''): Session {
  const parser = new TranscriptParser({ path, fallbackId });
  let offset = 0;
  lines.forEach((text, i) => {
    const len = utf8Bytes(text);
    parser.push(text.endsWith('\r') ? text.slice(0, -1) : text, i + 1, offset, len);
    offset += len + 1;
  });
  const session = parser.finish(true);
  session.capturedTextOf = (call) => {
    const node = call.resultUuid ? session.nodes.get(call.resultUuid) : undefined;
    const text = node ? lines[node.line - 1] : undefined;
    if (!node || text === undefined) return null;
    try {
      const record = JSON.parse(text) as { uuid?: unknown };
      return record.uuid === node.uuid ? capturedTextFromRecord(record, call.id) : null;
    } catch {
      return null;
    }
  };
  return session;
}

/**
 * A transcript read line by line for its live chain only (the validator's view of each side): the
 * same parser as everywhere, fed as the lines stream by; nothing reads captured text back.
 */
export class ChainReader {
  private readonly parser: TranscriptParser;
  private offset = 0;
  private line = 0;

  constructor(path: string) {
    this.parser = new TranscriptParser({ path, chainOnly: true });
  }

  /**
   * The next line; `record`: its record when the caller parsed it (the same for both sides of an
   * unchanged line); `byteLength`: the line's length in bytes when the caller knows it.
   */
  push(text: string, record?: JsonObject | null, byteLength?: number): void {
    const len = byteLength ?? utf8Bytes(text);
    this.line++;
    const stripped = text.endsWith('\r') ? text.slice(0, -1) : text;
    this.parser.push(stripped, this.line, this.offset, len, record ?? undefined);
    this.offset += len + 1;
  }

  finish(): Session {
    return this.parser.finish(true);
  }
}

export interface LiveChain {
  leafUuid: string | null;
  /** Records the client would load, in file order: the parent chain from the leaf, plus the
   *  split assistant records and parallel tool results it re-collects (docs/claude-code/transcript-format.md, "How the client picks what it resumes"). */
  uuids: string[];
  /** Sum of the local token estimates of their blocks. */
  estimatedTokens: number;
}

/**
 * The live branch as Claude Code loads it on resume: walk `parentUuid` from the leaf to a root (a
 * compaction boundary is one), re-collect records sharing a `message.id` with a chain record, the
 * results of their tool calls, and the messages a compaction preserved.
 */
export function liveChain(session: Session): LiveChain {
  const { nodes } = session;
  const live = new Set<string>();
  let cur: string | null = session.leafUuid;
  let boundary: ChainNode | undefined;
  while (cur && !live.has(cur)) {
    const node = nodes.get(cur);
    if (!node) break;
    live.add(cur);
    if (node.kind === 'compact-boundary' && !boundary) boundary = node;
    cur = node.parentUuid;
  }
  for (const u of boundary?.preservedUuids ?? []) if (nodes.has(u)) live.add(u);
  const messageIds = new Set<string>();
  for (const u of live) {
    const id = nodes.get(u)?.messageId;
    if (id) messageIds.add(id);
  }
  for (const node of nodes.values()) {
    if (!node.isSidechain && node.messageId && messageIds.has(node.messageId)) live.add(node.uuid);
  }
  for (const u of [...live]) {
    for (const b of nodes.get(u)?.blocks ?? []) {
      if (b.kind !== 'tool-use' || !b.toolUseId) continue;
      const result = session.toolCalls.get(b.toolUseId)?.resultUuid;
      if (result) live.add(result);
    }
  }
  const uuids = session.order.filter((u) => live.has(u));
  let estimatedTokens = 0;
  for (const u of uuids) for (const b of nodes.get(u)?.blocks ?? []) estimatedTokens += b.tokens;
  return { leafUuid: session.leafUuid, uuids, estimatedTokens };
}
