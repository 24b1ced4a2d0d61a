import type { Block, ChainNode } from '@glassbox/core';
import { utf8Bytes } from '../hash';
import { isObject, str, type Json, type JsonObject } from '../record-types';
import { renderAttachmentRecord } from '../parse/attachments';
import { versionRecordsRenderings } from '../parse/recorded-rendering';

/**
 * Compares the window Glassbox draws with the request Claude Code really sent when it resumed the
 * session (captured by the cc-harness; docs/claude-code/what-the-client-sends.md). Used by the opt-in
 * `npm run test:window` and by unit tests on the fixtures' recorded requests.
 */

/** One item of the window as the client would send it. */
export interface WindowItem {
  kind: 'tool-use' | 'tool-result' | 'text' | 'thinking' | 'attachment';
  /** Tool call id, for calls and results. */
  id?: string;
  /** The item's text (for attachments: the literal parts of the rendering, fixed wording left out). */
  texts: string[];
  /** Bytes it adds to the request. */
  bytes: number;
  line: number;
}

/** A tool result as the request carries it. */
interface RequestResult {
  bytes: number;
  /** Bytes before the first reminder appended to a text result, and those reminders' text. */
  payloadBytes: number;
  reminders: string[];
}

/** The request's items (the `messages` array of a Messages API request). */
export interface RequestItems {
  toolUses: Map<string, number>;
  toolResults: Map<string, RequestResult>;
  /** User- and system-side text, one entry per block or system message (without a reminder wrapper). */
  userTexts: string[];
  /** The bytes each of those took in the request (wrapper included). */
  userTextBytes: number[];
  /**
   * Of those, the indexes of text the resume itself may have added: reminders at the head of the first
   * message, and anything in the message of the new prompt (listings the loaded history lacks, reminders).
   */
  leading: Set<number>;
  assistantTexts: string[];
  thinking: string[];
  /** Text the resume itself added: the date/memory context, the new prompt and what follows it. */
  clientAdded: string[];
  /** Bytes of text, reasoning and tool input (tool results left out). */
  nonResultBytes: number;
}

export interface WindowComparison {
  results: { both: number; onlyGlassbox: string[]; onlyRequest: string[] };
  calls: { both: number; onlyGlassbox: string[]; onlyRequest: string[] };
  /** Text and reasoning the window has and the request lacks, and the reverse. */
  textOnlyGlassbox: string[];
  textOnlyRequest: string[];
  thinkingOnlyGlassbox: string[];
  thinkingOnlyRequest: string[];
  /** Reminders at the head of the request that no record holds (the client adds listings a transcript lacks). */
  clientAdded: string[];
  nonResultBytes: { glassbox: number; request: number; ratio: number };
}

const FIXED_WORDING = /\[[^\]]*: \d+ bytes of the client's wording\]/g;

/** The text of a block of a transcript record, read from its raw line. */
function blockText(record: JsonObject, block: Block): string {
  if (record['type'] === 'system') return str(record['content']) ?? '';
  const message = isObject(record['message']) ? record['message'] : {};
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const raw = content[block.index];
  if (!isObject(raw)) return '';
  return str(raw['text']) ?? str(raw['thinking']) ?? '';
}

/**
 * The window's items in order. `isSent` says whether Glassbox counts a block as sent; `lineText` gives a
 * record's raw line (the window keeps sizes, not text).
 */
export function windowItems(
  nodes: readonly ChainNode[],
  isSent: (node: ChainNode, block: Block) => boolean,
  lineText: (node: ChainNode) => string,
  sentKinds: ReadonlySet<string>,
  joinedReminderOverhead: number | null = null,
): WindowItem[] {
  const out: WindowItem[] = [];
  // On a model that takes reminders in the user message, one that follows no tool result is a text
  // block of its own there, in its wrapper (one after a result joins the result's text: its bytes are the result's).
  let afterResult = false;
  for (const node of nodes) {
    if (node.kind !== 'attachment' && node.kind !== 'system' && node.kind !== 'progress') afterResult = false;
    if (!sentKinds.has(node.kind)) continue;
    let record: JsonObject | null = null;
    const raw = (): JsonObject => {
      if (record === null) {
        const parsed: unknown = JSON.parse(lineText(node));
        record = isObject(parsed) ? parsed : {};
      }
      return record;
    };
    for (const block of node.blocks) {
      if (!isSent(node, block)) continue;
      if (block.kind === 'tool-use') out.push({ kind: 'tool-use', id: block.toolUseId ?? '', texts: [], bytes: block.bytes, line: node.line });
      else if (block.kind === 'tool-result') {
        out.push({ kind: 'tool-result', id: block.toolUseId ?? '', texts: [], bytes: block.bytes, line: node.line });
        afterResult = true;
      } else if (node.kind === 'attachment') {
        const rec = raw();
        const rendered = isObject(rec['attachment']) ? renderAttachmentRecord(rec, null, versionRecordsRenderings(str(rec['version']), new Set())) : null;
        const text = rendered && 'text' in rendered ? rendered.text : '';
        const wrapper = joinedReminderOverhead !== null && !block.wrappedAsSent && !afterResult && block.bytes > 0 ? joinedReminderOverhead - 2 : 0;
        out.push({ kind: 'attachment', texts: text.split(FIXED_WORDING).filter((t) => t.trim().length > 0), bytes: block.bytes + wrapper, line: node.line });
      } else if (block.kind === 'thinking' || block.kind === 'redacted-thinking') {
        out.push({ kind: 'thinking', texts: [blockText(raw(), block)], bytes: block.bytes, line: node.line });
      } else if (block.kind === 'text') {
        out.push({ kind: 'text', texts: [blockText(raw(), block)], bytes: block.bytes, line: node.line });
      }
    }
  }
  return out;
}

function blocksOf(message: JsonObject): JsonObject[] {
  const c = message['content'];
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  return Array.isArray(c) ? c.filter(isObject) : [];
}

function contentBytes(content: Json | undefined): number {
  if (typeof content === 'string') return utf8Bytes(content);
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const part of content) {
    if (!isObject(part)) continue;
    n += part['type'] === 'text' ? utf8Bytes(str(part['text']) ?? '') : utf8Bytes(JSON.stringify(part));
  }
  return n;
}

/** A text result with reminders the client may have appended (models without separate system messages). */
function readResult(content: Json | undefined): RequestResult {
  const bytes = contentBytes(content);
  if (typeof content !== 'string') return { bytes, payloadBytes: bytes, reminders: [] };
  const at = content.indexOf('\n\n<system-reminder>\n');
  if (at < 0) return { bytes, payloadBytes: bytes, reminders: [] };
  const reminders = [...content.slice(at).matchAll(/<system-reminder>\n([\s\S]*?)\n<\/system-reminder>/g)].map((m) => m[1] ?? '');
  return { bytes, payloadBytes: utf8Bytes(content.slice(0, at)), reminders };
}

const TOOL_LOADED = 'Tool loaded.';

/** The context block the client puts first on every request (date, memory files; a record of its own from 2.1.33x). */
const isContextReminder = (text: string): boolean => text.startsWith('<system-reminder>\nAs you answer the user');
const unwrap = (text: string): string => /^<system-reminder>\n?([\s\S]*?)\n?<\/system-reminder>\s*$/.exec(text)?.[1] ?? text;

/** Reads a request's `messages`; `prompt` is the text the resume itself sent. */
export function requestItems(messages: readonly unknown[], prompt: string): RequestItems {
  const items: RequestItems = {
    toolUses: new Map(),
    toolResults: new Map(),
    userTexts: [],
    userTextBytes: [],
    leading: new Set(),
    assistantTexts: [],
    thinking: [],
    clientAdded: [],
    nonResultBytes: 0,
  };
  const list = messages.filter(isObject);
  let promptAt = -1;
  list.forEach((m, i) => {
    if (m['role'] === 'user' && blocksOf(m).some((b) => b['type'] === 'text' && str(b['text'])?.trim() === prompt)) promptAt = i;
  });
  const firstUser = list.findIndex((m) => m['role'] === 'user');
  list.forEach((m, i) => {
    const role = str(m['role']);
    let head = i === firstUser;
    let prev: JsonObject | undefined;
    for (const b of blocksOf(m)) {
      const before = prev;
      prev = b;
      const type = str(b['type']);
      if (type === 'tool_result') {
        items.toolResults.set(str(b['tool_use_id']) ?? '', readResult(b['content']));
        head = false;
        continue;
      }
      if (type === 'tool_use') {
        const bytes = utf8Bytes(JSON.stringify(b['input'] ?? {})) + utf8Bytes(str(b['name']) ?? '');
        items.toolUses.set(str(b['id']) ?? '', bytes);
        items.nonResultBytes += bytes;
        continue;
      }
      const text = type === 'thinking' ? (str(b['thinking']) ?? '') : (str(b['text']) ?? '');
      const afterPrompt = promptAt >= 0 && role !== 'assistant' && (i > promptAt || (i === promptAt && text.trim() === prompt));
      if (i === promptAt && !afterPrompt) head = true;
      if (afterPrompt) {
        items.clientAdded.push(text);
        continue;
      }
      // "Tool loaded." follows a ToolSearch result on most models: the client's addition to that result.
      if (text === TOOL_LOADED && before !== undefined && str(before['type']) === 'tool_result') {
        const r = items.toolResults.get(str(before['tool_use_id']) ?? '');
        if (r) r.bytes += utf8Bytes(text);
        continue;
      }
      items.nonResultBytes += utf8Bytes(text);
      if (type === 'thinking' || type === 'redacted_thinking') items.thinking.push(text);
      else if (role === 'assistant') items.assistantTexts.push(text);
      else {
        // The context the client puts first (2.1.197: date and CLAUDE.md; 2.1.33x writes it as a record) may be its own.
        if (isContextReminder(text) || (head && (i === promptAt || text.startsWith('<system-reminder>')))) items.leading.add(items.userTexts.length);
        else head = false;
        items.userTexts.push(unwrap(text));
        items.userTextBytes.push(utf8Bytes(text));
      }
    }
  });
  return items;
}

const shown = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 80);

export function compareWindowWithRequest(window: readonly WindowItem[], request: RequestItems): WindowComparison {
  const userTexts = [...request.userTexts];
  const leading = new Set(request.leading);
  let requestBytes = request.nonResultBytes;
  // A result longer in the request than in the transcript carries reminders the client appended: text of its own.
  const resultItems = window.filter((w) => w.kind === 'tool-result');
  for (const w of resultItems) {
    const r = request.toolResults.get(w.id ?? '');
    if (!r || r.reminders.length === 0) continue;
    if (Math.abs(r.payloadBytes - w.bytes) < Math.abs(r.bytes - w.bytes)) {
      for (const t of r.reminders) {
        userTexts.push(t);
        requestBytes += utf8Bytes(t);
      }
    }
  }
  const pair = (mine: string[], theirs: ReadonlyMap<string, unknown>): { both: number; onlyGlassbox: string[]; onlyRequest: string[] } => {
    const set = new Set(mine);
    return { both: mine.filter((id) => theirs.has(id)).length, onlyGlassbox: mine.filter((id) => !theirs.has(id)), onlyRequest: [...theirs.keys()].filter((id) => !set.has(id)) };
  };
  const results = pair(resultItems.map((w) => w.id ?? ''), request.toolResults);
  const calls = pair(window.filter((w) => w.kind === 'tool-use').map((w) => w.id ?? ''), request.toolUses);

  const used = new Set<number>();
  const usedAssistant = new Set<number>();
  const textOnlyGlassbox: string[] = [];
  for (const w of window) {
    if (w.kind !== 'text' && w.kind !== 'attachment') continue;
    const pieces = w.texts.map((t) => unwrap(t).trim()).filter((t) => t.length > 0);
    let missing: string | null = null;
    for (const piece of pieces) {
      const a = request.assistantTexts.findIndex((t, i) => !usedAssistant.has(i) && t.trim() === piece);
      if (a >= 0) {
        usedAssistant.add(a);
        continue;
      }
      // A request text that holds the piece stands for one window item: the first not yet taken, the
      // history's before what the resume may have added (a new model's attribution repeats old wording).
      const holding = userTexts.flatMap((t, i) => (t.includes(piece) ? [i] : []));
      const one = holding.find((i) => !used.has(i) && !leading.has(i)) ?? holding.find((i) => !used.has(i)) ?? holding[0];
      // Request texts the piece holds (a recorded rendering of several messages) are all its own.
      const parts = userTexts.flatMap((t, i) => (!t.includes(piece) && t.trim().length > 0 && piece.includes(t.trim()) ? [i] : []));
      if (one === undefined && parts.length === 0) missing ??= piece;
      if (one !== undefined) used.add(one);
      for (const i of parts) used.add(i);
    }
    if (missing !== null) textOnlyGlassbox.push(`line ${w.line} (${w.kind}): ${shown(missing)}`);
  }
  const clientAdded: string[] = [];
  const textOnlyRequest: string[] = [];
  userTexts.forEach((t, i) => {
    if (used.has(i)) return;
    if (leading.has(i)) {
      clientAdded.push(shown(t));
      requestBytes -= request.userTextBytes[i] ?? utf8Bytes(t);
    } else textOnlyRequest.push(`user/system: ${shown(t)}`);
  });
  request.assistantTexts.forEach((t, i) => {
    if (!usedAssistant.has(i)) textOnlyRequest.push(`assistant: ${shown(t)}`);
  });
  const mineThinking = window.filter((w) => w.kind === 'thinking').map((w) => ({ w, text: w.texts[0] ?? '' }));
  const theirThinking = new Set(request.thinking);
  const thinkingOnlyGlassbox = mineThinking.filter((m) => !theirThinking.has(m.text)).map((m) => `line ${m.w.line}: ${shown(m.text)}`);
  const mineSet = new Set(mineThinking.map((m) => m.text));
  const thinkingOnlyRequest = request.thinking.filter((t) => !mineSet.has(t)).map(shown);
  const glassbox = window.filter((w) => w.kind !== 'tool-result').reduce((n, w) => n + w.bytes, 0);
  return {
    results,
    calls,
    textOnlyGlassbox,
    textOnlyRequest,
    thinkingOnlyGlassbox,
    thinkingOnlyRequest,
    clientAdded,
    nonResultBytes: { glassbox, request: requestBytes, ratio: requestBytes > 0 ? glassbox / requestBytes : 1 },
  };
}
