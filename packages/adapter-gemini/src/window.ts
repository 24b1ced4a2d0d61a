import { isObject, str, type ChainNode, type Json, type JsonObject, type ToolCall, type UsageRecord } from '@glassbox/core';
import { sha256Hex } from './hash';
import { partBlock, partsOf, partsText, responseText, isErrorResponse } from './parts';
import { readCapture } from './read-output';
import { messageType, type PlacedMessage } from './records';
import { ignoredUserText, rulesOf, SESSION_CONTEXT_TAG, SNAPSHOT_TAG, type Generation } from './rules';
import { exitCodeOf } from './shell-output';
import { shapeOfCall } from './tool-ops';
import { neutralUsage, tokensOfReply } from './usage';

const PROMPT_PREVIEW = 200;

/** The chain, calls and usage of a history, as the client would send it on resume. */
export interface BuiltWindow {
  nodes: Map<string, ChainNode>;
  order: string[];
  toolCalls: Map<string, ToolCall>;
  /** The file text each read captured, by call id (read back by `capturedTextOf`). */
  captured: Map<string, string>;
  firstPrompt: string | null;
  lastModel: string | null;
  /** Model replies with recorded usage, in history order. */
  replies: UsageRecord[];
  /** Set when the history starts with a compression's snapshot: the snapshot message's id. */
  compressedAt: string | null;
  /** Function responses whose call is not in the history. */
  orphans: { id: string; line: number }[];
  /** Calls that ran a subagent with a chat of its own, and that chat's id (0.61 records it as `agentId`). */
  agents: { toolUseId: string; agentId: string; name: string }[];
}

/**
 * Turns the history the client loads (messages after the last record per id, rewinds and full
 * replaces) into the chain it sends, with the rules of its generation: a user message as it is (a
 * prompt, the session context, a compression snapshot, or function responses), slash commands and
 * notices left out; a reply as its text, thoughts and function calls — rebuilt from `toolCalls` when
 * its content is plain text (how every client records it in the session), followed then by a user
 * turn of the calls' recorded results (`<id>_response`) whenever it has `toolCalls`. 0.39+ also records
 * those results as a user message of their own, so on resume every result is sent twice (three times
 * for a reply a rewrite kept with its calls); every copy is in the window.
 */
export function buildWindow(history: readonly PlacedMessage[], generation: Generation, cwd: string | null, agentOfCall: ReadonlyMap<string, string> = new Map()): BuiltWindow {
  const rules = rulesOf(generation);
  const out: BuiltWindow = { nodes: new Map(), order: [], toolCalls: new Map(), captured: new Map(), firstPrompt: null, lastModel: null, replies: [], compressedAt: null, orphans: [], agents: [] };
  let last: string | null = null;
  const append = (node: ChainNode) => {
    while (out.nodes.has(node.uuid)) node.uuid = `${node.uuid}+`;
    node.parentUuid = last;
    out.nodes.set(node.uuid, node);
    out.order.push(node.uuid);
    last = node.uuid;
  };
  for (const pm of history) {
    const m = pm.message;
    const type = messageType(m);
    const base = (uuid: string, kind: ChainNode['kind']): ChainNode => {
      const node: ChainNode = { uuid, parentUuid: null, kind, rawType: type, line: pm.at.line, offset: pm.at.offset, length: pm.at.length, isSidechain: false, blocks: [], mirrorBytes: 0 };
      const ts = str(m['timestamp']);
      if (ts) node.timestamp = ts;
      return node;
    };
    if (type === 'user') {
      const parts = partsOf(m['content']);
      const text = partsText(parts);
      const hasResponses = parts.some((p) => isObject(p['functionResponse']));
      let node: ChainNode;
      if (hasResponses) node = base(pm.id, 'tool-results');
      else if (text.trimStart().startsWith(SNAPSHOT_TAG)) {
        node = base(pm.id, 'compact-summary');
        out.compressedAt ??= pm.id;
      } else if (text.trimStart().startsWith(SESSION_CONTEXT_TAG)) {
        node = base(pm.id, 'meta');
        node.subtype = 'session context';
      } else if (ignoredUserText(text)) {
        node = base(pm.id, 'meta');
        node.subtype = 'command';
        node.notSent = 'Gemini CLI does not send slash commands, help requests or empty prompts back on resume';
      } else {
        node = base(pm.id, 'prompt');
        node.promptText = text.slice(0, PROMPT_PREVIEW);
        out.firstPrompt ??= node.promptText;
      }
      node.blocks = parts.map((p, i) => partBlock(p, i));
      append(node);
      if (hasResponses) linkResults(out, node, parts);
      continue;
    }
    if (type === 'gemini') {
      const node = base(pm.id, 'assistant');
      node.messageId = pm.id;
      const model = str(m['model']);
      if (model) {
        node.model = model;
        out.lastModel = model;
      }
      const tokens = tokensOfReply(m['tokens']);
      if (tokens) {
        node.usage = neutralUsage(tokens);
        out.replies.push({ messageId: pm.id, model: model ?? 'unknown', line: pm.at.line, usage: node.usage, isSidechain: false, ...(node.timestamp ? { timestamp: node.timestamp } : {}) });
      } else if (!model) node.synthetic = true;
      const content = partsOf(m['content']);
      const modern = content.some((p) => isObject(p['functionCall']) || p['thought'] === true);
      const calls = Array.isArray(m['toolCalls']) ? m['toolCalls'].filter(isObject) : [];
      const parts: JsonObject[] = modern ? content : [...thoughtParts(m['thoughts']), ...content, ...calls.map(callPart)];
      node.blocks = parts.map((p, i) => {
        const b = partBlock(p, i);
        if (b.kind === 'thinking' && !rules.thoughtsSent) b.notSent = 'Gemini CLI does not send a reply’s thoughts back on resume (this generation)';
        return b;
      });
      for (const p of parts) if (isObject(p['functionCall'])) registerCall(out, node, p['functionCall'], cwd, calls, agentOfCall);
      append(node);
      // The client adds this turn whenever the reply has recorded calls, even when its content already
      // holds them: a history rewritten after the calls were recorded keeps `toolCalls` and gets a third copy.
      if (calls.length > 0) {
        const results = calls.flatMap((c) => resultParts(c));
        if (results.length > 0) {
          const rn = base(`${pm.id}_response`, 'tool-results');
          rn.rawType = 'gemini/toolCalls.result';
          rn.blocks = results.map((p, i) => partBlock(p, i));
          rn.mirrorBytes = calls.reduce((n, c) => n + mirrorBytesOf(c), 0);
          append(rn);
          linkResults(out, rn, results);
        }
      }
      continue;
    }
    const node = base(pm.id, 'system');
    node.subtype = type;
    node.notSent = 'a notice Gemini CLI shows (info, warning, error); it is never sent to the model';
    node.blocks = partsOf(m['content']).map((p, i) => partBlock(p, i));
    append(node);
  }
  return out;
}

/** A legacy reply's thoughts as the 0.29–0.38 client rebuilds them ("**subject** description"). */
function thoughtParts(raw: Json | undefined): JsonObject[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((t) => {
    const subject = str(t['subject']) ?? '';
    const description = str(t['description']) ?? '';
    return { text: subject ? `**${subject}** ${description}` : description, thought: true };
  });
}

function callPart(c: JsonObject): JsonObject {
  return { functionCall: { id: str(c['id']) ?? '', name: str(c['name']) ?? 'tool', args: isObject(c['args']) ? c['args'] : {} } };
}

/** A recorded call's result as the parts the client puts in the `<id>_response` turn. */
function resultParts(c: JsonObject): JsonObject[] {
  const r = c['result'];
  if (r === undefined || r === null) return [];
  if (typeof r === 'string') return [{ functionResponse: { id: str(c['id']) ?? '', name: str(c['name']) ?? 'tool', response: { output: r } } }];
  if (Array.isArray(r)) return partsOf(r);
  return isObject(r) ? [r] : [];
}

/** Bytes of what the client keeps of a call only for its own display (never sent). */
function mirrorBytesOf(c: JsonObject): number {
  const d = c['resultDisplay'];
  return d === undefined || d === null || d === '' ? 0 : JSON.stringify(d).length;
}

function registerCall(out: BuiltWindow, node: ChainNode, call: JsonObject, cwd: string | null, records: readonly JsonObject[], agentOfCall: ReadonlyMap<string, string>): void {
  const id = str(call['id']);
  if (!id || out.toolCalls.has(id)) return;
  const name = str(call['name']) ?? 'tool';
  const args = isObject(call['args']) ? call['args'] : {};
  const shape = shapeOfCall(name, args, cwd);
  const record = records.find((r) => r['id'] === id);
  const status = record ? str(record['status']) : undefined;
  out.toolCalls.set(id, { id, name, useUuid: node.uuid, useLine: node.line, isError: status === 'error' || status === 'cancelled', op: shape.op, source: shape.source });
  const agentId = (record ? str(record['agentId']) : undefined) ?? agentOfCall.get(id);
  if (agentId && shape.op.kind === 'subagent') {
    shape.op.agentId = agentId;
    out.agents.push({ toolUseId: id, agentId, name });
  }
}

/** Links each function response to its call: the first copy is the call's result; every copy is judged. */
function linkResults(out: BuiltWindow, node: ChainNode, parts: readonly JsonObject[]): void {
  parts.forEach((p, i) => {
    const fr = p['functionResponse'];
    if (!isObject(fr)) return;
    const id = str(fr['id']);
    const call = id ? out.toolCalls.get(id) : undefined;
    if (!call) {
      out.orphans.push({ id: id ?? '?', line: node.line });
      return;
    }
    const text = responseText(fr['response']);
    const error = isErrorResponse(fr['response']) || (call.op.kind === 'command' && (exitCodeOf(text) ?? 0) !== 0);
    if (error) {
      call.isError = true;
      const b = node.blocks[i];
      if (b) b.isError = true;
    }
    if (call.resultUuid !== undefined) return;
    call.resultUuid = node.uuid;
    call.resultLine = node.line;
    if (call.op.kind === 'read' && !error) {
      const cap = readCapture(text);
      if (cap) {
        call.op = { ...call.op, startLine: cap.startLine, numLines: cap.numLines, totalLines: cap.totalLines, full: cap.full, truncated: false, capturedHash: sha256Hex(cap.text) };
        out.captured.set(call.id, cap.text);
      }
    }
  });
}
