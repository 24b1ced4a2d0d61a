import type { ChainNode, ToolCall } from '@glassbox/core';
import { tokensOf } from './tokens';
import { outputBlock, outputText, preview } from './blocks';
import { utf8Bytes } from './hash';
import { str, type JsonObject } from './json';
import { readFromOutput, type ReadSpec } from './read-grammar';
import { shapeOfCall } from './tool-ops';

interface UnsettledCall {
  node: ChainNode;
  call: ToolCall;
  item: JsonObject;
  cwd: string | null;
}

interface Unsettled {
  node: ChainNode;
  callId: string;
  text: string;
}

/**
 * Calls and their outputs, paired by call_id. A command that fits the pure-read grammar becomes a
 * read only when its output proves it (exit code 0, not cut by Codex, lines as the command promises).
 *
 * Pairing is done as records come; the work on a call's command and an output's text (its header,
 * body hash, preview, and the proof of a read) waits until the parse ends and is done only for the
 * records still in the window: in a long session most outputs are let go by a later compaction, and the window is bounded
 * by the model's context, so memory stays bounded too.
 */
export class CallLinker {
  readonly toolCalls = new Map<string, ToolCall>();
  readonly readSpecs = new Map<string, { spec: ReadSpec; workdir: string | null }>();
  /** Outputs whose call has not been seen (Codex drops them on resume). */
  readonly pendingOutputs = new Map<string, { node: ChainNode; text: string }>();
  private unsettled: Unsettled[] = [];
  private unsettledCalls: UnsettledCall[] = [];

  constructor(private readonly keepCapturedText: boolean) {}

  /**
   * A call record: known by its id now (for pairing), its shape — the command, the read it may be,
   * the patch — worked out when the parse ends, if it is still in the window (settle).
   */
  takeCall(item: JsonObject, node: ChainNode, cwd: string | null): void {
    const type = str(item['type']) ?? '';
    const callId = str(item['call_id']) ?? str(item['id']) ?? `${node.uuid}:call`;
    const name = str(item['name']) ?? type;
    const call: ToolCall = { id: callId, name, useUuid: node.uuid, useLine: node.line, isError: false, op: { kind: 'other', name }, source: { type: 'tool', label: name } };
    this.toolCalls.set(callId, call);
    this.unsettledCalls.push({ node, call, item, cwd });
    const pending = this.pendingOutputs.get(callId);
    if (pending) {
      this.pendingOutputs.delete(callId);
      this.pair(call, pending.node);
    }
  }

  private settleCall({ node, call, item, cwd }: UnsettledCall): void {
    const type = str(item['type']) ?? '';
    const shape = shapeOfCall(item, cwd);
    const payload = type === 'custom_tool_call' ? (str(item['input']) ?? '') : type === 'function_call' ? (str(item['arguments']) ?? '') : JSON.stringify(item['action'] ?? {});
    const bytes = utf8Bytes(payload) + utf8Bytes(shape.name);
    call.name = shape.name;
    call.op = shape.op;
    call.source = shape.source;
    if (shape.readSpec) this.readSpecs.set(call.id, { spec: shape.readSpec, workdir: shape.workdir });
    node.blocks = [{ index: 0, kind: 'tool-use', bytes, tokens: tokensOf(bytes), preview: preview(`${shape.name} ${shape.source.label}`), toolUseId: call.id, toolName: shape.name }];
  }

  /** An output record: paired with its call now, its block made when the parse ends (settle). */
  takeOutput(item: JsonObject, node: ChainNode): void {
    const callId = str(item['call_id']) ?? '';
    const text = outputText(item['output']);
    const call = this.toolCalls.get(callId);
    if (call) this.pair(call, node);
    else this.pendingOutputs.set(callId, { node, text });
    this.unsettled.push({ node, callId, text });
  }

  /** Makes the blocks of the outputs still in the window, and proves their reads. */
  settle(window: ReadonlyMap<string, ChainNode>): void {
    for (const c of this.unsettledCalls) if (window.has(c.node.uuid)) this.settleCall(c);
    this.unsettledCalls = [];
    for (const u of this.unsettled) {
      if (!window.has(u.node.uuid)) continue;
      const out = outputBlock(u.callId, u.text);
      const call = this.toolCalls.get(u.callId);
      if (call && call.resultUuid === u.node.uuid) {
        out.block.toolName = call.name;
        this.classify(call, out);
        if (call.isError) out.block.isError = true;
      }
      u.node.blocks = [out.block];
    }
    this.unsettled = [];
  }

  private pair(call: ToolCall, node: ChainNode): void {
    call.resultUuid = node.uuid;
    call.resultLine = node.line;
  }

  private classify(call: ToolCall, out: ReturnType<typeof outputBlock>): void {
    const { exitCode, running, truncated, body } = out;
    call.isError = exitCode !== null && exitCode !== 0;
    const found = this.readSpecs.get(call.id);
    if (!found) return;
    if (exitCode !== 0 || running || truncated) {
      this.readSpecs.delete(call.id);
      return;
    }
    const op = readFromOutput(found.spec, body, found.workdir, this.keepCapturedText);
    if (op) call.op = op;
    else this.readSpecs.delete(call.id);
  }

  /** After a compaction: calls and unsettled outputs whose records were let go are forgotten. */
  forgetCallsNotIn(nodes: ReadonlyMap<string, ChainNode>): void {
    this.unsettled = this.unsettled.filter((u) => nodes.has(u.node.uuid));
    this.unsettledCalls = this.unsettledCalls.filter((c) => nodes.has(c.node.uuid));
    for (const [id, call] of this.toolCalls) {
      if (!nodes.has(call.useUuid)) {
        this.toolCalls.delete(id);
        this.readSpecs.delete(id);
      }
    }
  }
}
