import type { ChainNode, CompactionEvent } from '@glassbox/core';
import { tokensOf } from '../tokens';
import { isObject, num, str, type JsonObject } from '../record-types';

/** What the compaction collector keeps between records: the events, and per thread the one still open. */
export interface CompactionTrack {
  readonly events: CompactionEvent[];
  /** By thread (sidechain or not): the last compaction whose summary, re-attached files and first response are still being read. */
  readonly open: Map<boolean, { event: CompactionEvent }>;
}

export function newCompactionTrack(): CompactionTrack {
  return { events: [], open: new Map() };
}

/**
 * Records what a compaction left in the transcript, as its records arrive (docs/claude-code/transcript-format.md):
 * the `compact_boundary` with its `compactMetadata`, the `isCompactSummary` record, the `/compact` echo
 * with the person's instructions, the files and listings attached before the first request after it
 * (the client attaches listings again with the next prompt when the history lost them), and the
 * first real response after it. A summary with no boundary before it (clients before boundaries existed) is a compaction
 * of its own, `legacy`, whose window ended at its parent.
 */
export function noteCompaction(track: CompactionTrack, r: JsonObject, node: ChainNode): void {
  const thread = node.isSidechain;
  const open = track.open.get(thread);
  switch (node.kind) {
    case 'compact-boundary': {
      const event = boundaryEvent(r, node);
      track.events.push(event);
      track.open.set(thread, { event });
      return;
    }
    case 'compact-summary': {
      const bytes = node.blocks.reduce((n, b) => n + b.bytes, 0);
      const summary = { uuid: node.uuid, line: node.line, offset: node.offset, length: node.length, bytes };
      if (open && open.event.summary === null && open.event.firstResponse === null) {
        open.event.summary = summary;
        return;
      }
      const event: CompactionEvent = {
        uuid: node.uuid,
        line: node.line,
        isSidechain: thread,
        trigger: 'legacy',
        leafBefore: node.parentUuid,
        preTokensMetadata: null,
        postTokensMetadata: null,
        preserved: [],
        summary,
        reattached: [],
        firstResponse: null,
      };
      if (node.timestamp) event.timestamp = node.timestamp;
      track.events.push(event);
      track.open.set(thread, { event });
      return;
    }
    case 'attachment':
      if (open) reattached(open.event, r, node);
      return;
    case 'prompt': {
      const text = open ? (promptText(r) ?? '') : '';
      const args = text.includes('<command-name>/compact</command-name>') ? /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1]?.trim() : undefined;
      if (open && args) open.event.instructions = args;
      return;
    }
    case 'assistant':
      if (!open || node.synthetic || !node.usage) return;
      open.event.firstResponse = { uuid: node.uuid, line: node.line, parentUuid: node.parentUuid };
      track.open.delete(thread);
      return;
    default:
  }
}

function boundaryEvent(r: JsonObject, node: ChainNode): CompactionEvent {
  const meta = isObject(r['compactMetadata']) ? r['compactMetadata'] : {};
  const kept = isObject(meta['preservedMessages']) ? (meta['preservedMessages']['allUuids'] ?? meta['preservedMessages']['uuids']) : undefined;
  const preserved = Array.isArray(kept) ? kept.filter((u): u is string => typeof u === 'string') : (node.preservedUuids ?? []);
  const event: CompactionEvent = {
    uuid: node.uuid,
    line: node.line,
    isSidechain: node.isSidechain,
    trigger: str(meta['trigger']) ?? 'auto',
    leafBefore: node.logicalParentUuid ?? null,
    preTokensMetadata: num(meta['preTokens']) ?? null,
    postTokensMetadata: num(meta['postTokens']) ?? null,
    preserved,
    summary: null,
    reattached: [],
    firstResponse: null,
  };
  if (node.timestamp) event.timestamp = node.timestamp;
  return event;
}

/** A file the client read again for the model, or a listing it sent again, right after the compaction. */
function reattached(event: CompactionEvent, r: JsonObject, node: ChainNode): void {
  const att = r['attachment'];
  const bytes = node.blocks.reduce((n, b) => n + (b.notSent ? 0 : b.bytes), 0);
  if (!isObject(att) || bytes === 0) return;
  const base = { uuid: node.uuid, line: node.line, bytes, tokens: tokensOf(bytes) };
  const path = att['type'] === 'file' ? str(att['filename']) : undefined;
  if (path) event.reattached.push({ kind: 'file', label: path, path, ...base });
  else event.reattached.push({ kind: 'context', label: node.blocks[0]?.label ?? node.subtype ?? 'attachment', ...base });
}

function promptText(r: JsonObject): string | undefined {
  const message = r['message'];
  const content = isObject(message) ? message['content'] : undefined;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) if (isObject(block) && block['type'] === 'text') return str(block['text']);
  return undefined;
}
