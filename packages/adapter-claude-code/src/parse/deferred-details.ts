import { tombstoneMark, type Block, type ChainNode, type ReadOp, type ToolCall } from '@glassbox/core';
import { sha256 } from '../hash';
import { preview } from './blocks';
import type { ParseState } from './state';

/**
 * A block's details that only a block of the finished session needs: its preview, the sha-256 of its
 * payload and its tombstone mark. Most records of a long session are let go at the next compaction,
 * so these are worked out when the record is known to stay (it outlived a compaction, or the parse
 * ended) instead of as it is read; the values are the same either way.
 */
export interface DeferredDetail {
  readonly node: ChainNode;
  readonly block: Block;
  readonly text: string;
  /** What the payload hash is taken of (a string, or the content array as JSON); undefined: the block is not hashed. */
  readonly hashOf: string | readonly unknown[] | undefined;
  /** Whether the text may be a Glassbox tombstone. */
  readonly mark: boolean;
}

/** A read's captured text, to be hashed if the call outlives the next compaction (the proof a changed file needs). */
export interface DeferredCaptureHash {
  readonly call: ToolCall;
  readonly op: ReadOp;
  readonly text: string;
}

/** Characters held for deferred details before they are worked out anyway (a session that never compacts). */
const HELD_CHARS_MAX = 4 * 1024 * 1024;

/** Holds a block's details until its record is known to stay (chainOnly parses need none: not held). */
export function deferDetail(state: ParseState, detail: DeferredDetail, heldChars = detail.text.length): void {
  state.deferred.push(detail);
  hold(state, heldChars);
}

export function deferCaptureHash(state: ParseState, held: DeferredCaptureHash): void {
  state.deferredHashes.push(held);
  hold(state, held.text.length);
}

function hold(state: ParseState, chars: number): void {
  state.deferredChars += chars;
  if (state.deferredChars > HELD_CHARS_MAX) settleDetails(state);
}

/**
 * Works out the details of every held block whose record is still in the session (a record let go,
 * or replaced by a later copy of itself, is dropped unworked), and the hash of every held read whose
 * call is still the session's with that op, then lets go of the texts.
 */
export function settleDetails(state: ParseState): void {
  const { deferred, deferredHashes, nodes, toolCalls } = state;
  for (const d of deferred) if (nodes.get(d.node.uuid) === d.node) workOut(d, state.previews);
  for (const h of deferredHashes) if (toolCalls.get(h.call.id) === h.call && h.call.op === h.op) h.op.capturedHash = sha256(h.text);
  deferred.length = 0;
  deferredHashes.length = 0;
  state.deferredChars = 0;
}

function workOut(d: DeferredDetail, previews: boolean): void {
  const block = d.block;
  if (previews) block.preview = preview(d.text);
  if (d.hashOf !== undefined) block.hash = sha256(typeof d.hashOf === 'string' ? d.hashOf : JSON.stringify(d.hashOf));
  if (d.mark) {
    const mark = tombstoneMark(d.text);
    if (mark) Object.assign(block, mark);
  }
}
