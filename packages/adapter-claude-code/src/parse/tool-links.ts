import { IMAGE_TOKENS, tombstoneHash, type Block, type ChainNode, type ToolCall } from '@glassbox/core';
import { tokensOf } from '../tokens';
import { utf8Bytes } from '../hash';
import { isObject, str, type Json, type JsonObject } from '../record-types';
import { opFromInput, refineRead } from '../tool-ops';
import { HASH_MIN_BYTES, jsonBytes, preview } from './blocks';
import type { ParseState, SubagentHint } from './state';
import { deferCaptureHash, deferDetail, type DeferredDetail } from './deferred-details';

/** A `tool_result` block: its size as sent, linked to its call now or when the call is read. */
export function takeToolResult(state: ParseState, block: JsonObject, index: number, node: ChainNode, mirror: Json | undefined): Block {
  const toolUseId = str(block['tool_use_id']) ?? '';
  const isError = block['is_error'] === true;
  const raw = block['content'];
  let text: string | null = null;
  let bytes = 0;
  let tokens = 0;
  let hashOf: string | unknown[] | undefined;
  if (typeof raw === 'string') {
    text = raw;
    bytes = utf8Bytes(raw);
    tokens = tokensOf(bytes);
    hashOf = raw;
  } else if (Array.isArray(raw)) {
    const parts: string[] = [];
    for (const part of raw) {
      if (!isObject(part)) continue;
      if (part['type'] === 'text') {
        const t = str(part['text']) ?? '';
        parts.push(t);
        const b = utf8Bytes(t);
        bytes += b;
        tokens += tokensOf(b);
      } else if (part['type'] === 'image' || part['type'] === 'document') {
        tokens += IMAGE_TOKENS;
        bytes += jsonBytes(part);
      } else {
        const b = jsonBytes(part);
        bytes += b;
        tokens += tokensOf(b);
      }
    }
    text = parts.join('\n');
    hashOf = raw;
  }
  const out: Block = { index, kind: 'tool-result', bytes, tokens, preview: '', toolUseId };
  if (isError) out.isError = true;
  if (!state.chainOnly) {
    const detail: DeferredDetail = { node, block: out, text: text ?? '', hashOf: bytes >= HASH_MIN_BYTES ? hashOf : undefined, mark: text !== null };
    // A content array is held whole until then (its images included): counted by its size.
    deferDetail(state, detail, (text?.length ?? 0) + (Array.isArray(hashOf) ? bytes : 0));
  }

  const call = state.toolCalls.get(toolUseId);
  if (call) linkResult(state, call, out, node, mirror, text);
  else state.pendingResults.set(toolUseId, { block: out, node, mirror, text });
  return out;
}

/** A `tool_use` block: records the call and links a result that was read before it. */
export function takeToolUse(state: ParseState, block: JsonObject, index: number, node: ChainNode): Block {
  const id = str(block['id']) ?? `${node.uuid}:${index}`;
  const name = str(block['name']) ?? 'tool';
  const input = isObject(block['input']) ? block['input'] : {};
  const { op, source } = opFromInput(name, input, state.cwd);
  const bytes = jsonBytes(input) + utf8Bytes(name);
  const call: ToolCall = { id, name, useUuid: node.uuid, useLine: node.line, isError: false, op, source };
  state.toolCalls.set(id, call);
  const pending = state.pendingResults.get(id);
  if (pending) {
    state.pendingResults.delete(id);
    linkResult(state, call, pending.block, pending.node, pending.mirror, pending.text);
  }
  const out: Block = {
    index,
    kind: 'tool-use',
    bytes,
    tokens: tokensOf(bytes),
    preview: state.previews ? preview(`${name} ${source.label}`) : '',
    toolUseId: id,
    toolName: name,
  };
  if (op.kind === 'write' && op.contentBytes >= HASH_MIN_BYTES) out.hash = op.contentHash;
  const tombstone = state.chainOnly ? null : tombstoneInInput(input);
  if (tombstone !== null) out.tombstone = tombstone;
  return out;
}

/** A Glassbox tombstone in a tool input's string fields (a forked Write's content, an Edit's new_string). */
function tombstoneInInput(input: JsonObject): string | null {
  for (const v of Object.values(input)) {
    if (typeof v === 'string') {
      const t = tombstoneHash(v);
      if (t !== null) return t;
    } else if (Array.isArray(v)) {
      for (const e of v) {
        const t = isObject(e) && typeof e['new_string'] === 'string' ? tombstoneHash(e['new_string']) : null;
        if (t !== null) return t;
      }
    }
  }
  return null;
}

function linkResult(state: ParseState, call: ToolCall, out: Block, node: ChainNode, mirror: Json | undefined, text: string | null): void {
  out.toolName = call.name;
  call.resultUuid = node.uuid;
  call.resultLine = node.line;
  call.isError = out.isError === true || typeof mirror === 'string';
  if (call.op.kind === 'read' && !call.isError && !state.chainOnly) {
    call.op = refineRead(call.op, mirror, text, state.keepCapturedText, (op, captured) => deferCaptureHash(state, { call, op, text: captured }));
  }
  if (call.op.kind === 'subagent' && isObject(mirror)) {
    const agentId = str(mirror['agentId']);
    if (agentId) {
      call.op = { ...call.op, agentId };
      const hint: SubagentHint = { toolUseId: call.id };
      const agentType = str(mirror['agentType']);
      if (agentType) hint.agentType = agentType;
      hint.description = call.op.description;
      state.subagentHints.set(agentId, hint);
    }
  }
}

/** Results whose call no record of the file made: reported (main thread only), then forgotten. */
export function settleOrphanResults(state: ParseState): void {
  for (const [toolUseId, pending] of state.pendingResults) {
    // The client drops a result whose call it cannot find before it (docs/claude-code/).
    pending.block.notSent = 'a tool result whose call is not in the file';
    if (pending.node.isSidechain) continue;
    state.problems.push({
      code: 'orphan_tool_result',
      severity: 'info',
      file: state.path,
      line: pending.node.line,
      message: `${state.path}:${pending.node.line}: a tool result answers ${toolUseId || 'no tool call'}, which no record in the file made`,
    });
  }
  state.pendingResults.clear();
}
