import { type Block, type ChainNode, type ToolCall } from '@glassbox/core';
import { tokensOf } from './tokens';
import { outputBlock, outputText, preview } from './blocks';
import { utf8Bytes } from './hash';
import { str, type JsonObject } from './json';
import { readFromOutput, type ReadSpec } from './read-grammar';
import { shapeOfCall } from './tool-ops';

/**
 * Calls and their outputs, paired by call_id. A command that fits the pure-read grammar becomes a
 * read only when its output proves it (exit code 0, not cut by Codex, lines as the command promises).
 */
export class CallLinker {
  readonly toolCalls = new Map<string, ToolCall>();
  readonly readSpecs = new Map<string, { spec: ReadSpec; workdir: string | null }>();
  /** Outputs whose call has not been seen (Codex drops them on resume). */
  readonly pendingOutputs = new Map<string, { node: ChainNode; text: string }>();

  constructor(private readonly keepCapturedText: boolean) {}

  takeCall(item: JsonObject, node: ChainNode, cwd: string | null): Block {
    const type = str(item['type']) ?? '';
    const callId = str(item['call_id']) ?? str(item['id']) ?? `${node.uuid}:call`;
    const shape = shapeOfCall(item, cwd);
    const payload = type === 'custom_tool_call' ? (str(item['input']) ?? '') : type === 'function_call' ? (str(item['arguments']) ?? '') : JSON.stringify(item['action'] ?? {});
    const bytes = utf8Bytes(payload) + utf8Bytes(shape.name);
    const call: ToolCall = { id: callId, name: shape.name, useUuid: node.uuid, useLine: node.line, isError: false, op: shape.op, source: shape.source };
    this.toolCalls.set(callId, call);
    if (shape.readSpec) this.readSpecs.set(callId, { spec: shape.readSpec, workdir: shape.workdir });
    const pending = this.pendingOutputs.get(callId);
    if (pending) {
      this.pendingOutputs.delete(callId);
      this.link(call, pending.node, pending.text);
    }
    return { index: 0, kind: 'tool-use', bytes, tokens: tokensOf(bytes), preview: preview(`${shape.name} ${shape.source.label}`), toolUseId: callId, toolName: shape.name };
  }

  takeOutput(item: JsonObject, node: ChainNode): Block {
    const callId = str(item['call_id']) ?? '';
    const text = outputText(item['output']);
    const { block } = outputBlock(callId, text);
    const call = this.toolCalls.get(callId);
    if (call) {
      block.toolName = call.name;
      this.link(call, node, text);
      if (call.isError) block.isError = true;
    } else this.pendingOutputs.set(callId, { node, text });
    return block;
  }

  private link(call: ToolCall, node: ChainNode, text: string): void {
    const { exitCode, running, truncated, body } = outputBlock(call.id, text);
    call.resultUuid = node.uuid;
    call.resultLine = node.line;
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

  /** After a compaction: calls whose records were let go are forgotten. */
  forgetCallsNotIn(nodes: ReadonlyMap<string, ChainNode>): void {
    for (const [id, call] of this.toolCalls) {
      if (!nodes.has(call.useUuid)) {
        this.toolCalls.delete(id);
        this.readSpecs.delete(id);
      }
    }
  }
}
