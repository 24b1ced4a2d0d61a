import {
  SearchText,
  emptySummaryState,
  type MessageUsage,
  type SummaryPass,
  type SummaryState,
  type TranscriptSummarizer,
} from '@glassbox/core';
import { parseUsage } from '../parser';
import { isObject, str, type JsonObject } from '../record-types';
import { userRecordKind } from '../user-text';
import { CLAUDE_CODE } from '../identity';
import { isClientPlaceholder } from './placeholder';

const PROMPT_CHARS = 400;
const SEARCH_PROMPT_CHARS = 2000;
const SEARCH_COMMAND_CHARS = 500;

/**
 * Tool-result records are most of a transcript's bytes and the summary needs nothing inside them but
 * the timestamp. The client writes compact JSON, and inside a JSON string a quote is always escaped,
 * so this exact unescaped text appears only as the structure of a tool result block.
 */
const TOOL_RESULT_MARK = '"type":"tool_result"';

/** Title precedence: a title the person set, then the client's generated title, then a 1.x summary. */
export function titleOf(s: SummaryState): string | null {
  const t = (k: string) => (typeof s.ext[k] === 'string' ? (s.ext[k] as string) : null);
  return t('customTitle') ?? t('aiTitle') ?? t('summaryTitle');
}

/**
 * The list's summary of a Claude Code transcript, line by line from a checkpoint. It reads records the
 * way the parser does (the same prompt rule, the same usage fields), so the list's turns, context and
 * cost agree with the analysis; what needs the whole chain (the resident window, classes) is left to it.
 */
export class ClaudeSummarizer implements TranscriptSummarizer {
  readonly state: SummaryState;
  private readonly messages = new Map<string, MessageUsage>();
  private readonly search: string[] = [];
  private readonly seenPaths = new Set<string>();
  /** Replies and the heads of tool results, within the search budget. */
  private readonly searchText: SearchText;
  private skipped: { text: string; line: number; record: unknown } | null = null;

  constructor(state: SummaryState | null, subagentFile: boolean) {
    this.state = state ?? emptySummaryState(CLAUDE_CODE, subagentFile);
    this.searchText = new SearchText(this.search, this.state);
  }

  line(text: string, lineNo: number, record?: unknown): void {
    if (text.length === 0) return;
    // Parsed while the search still takes results; past its budget, only the timestamp matters.
    if (text.includes(TOOL_RESULT_MARK) && text.startsWith('{') && !this.searchText.wantsResults()) {
      // Deferred: parsed only if it turns out to be the pass's last line (for the last activity time).
      this.state.records++;
      this.skipped = { text, line: lineNo, record };
      return;
    }
    this.skipped = null;
    this.parse(text, lineNo, true, record);
  }

  finish(): SummaryPass {
    if (this.skipped) {
      this.parse(this.skipped.text, this.skipped.line, false, this.skipped.record);
      this.skipped = null;
    }
    this.state.title = titleOf(this.state);
    if (this.state.title) this.search.unshift(this.state.title);
    return { state: this.state, messages: [...this.messages.values()], searchText: this.search.join('\n') };
  }

  /** `given`: the line's record when the caller parsed it (see TranscriptSummarizer.line). */
  private parse(text: string, lineNo: number, count: boolean, given?: unknown): void {
    let r: unknown = given;
    if (r === undefined) {
      try {
        r = JSON.parse(text);
      } catch {
        if (/^\s*$/.test(text)) return;
        this.invalid(lineNo);
        return;
      }
    }
    if (!isObject(r)) {
      this.invalid(lineNo);
      return;
    }
    if (count) this.state.records++;
    this.take(r);
  }

  private invalid(lineNo: number): void {
    this.state.invalidLines++;
    this.state.firstInvalidLine ??= lineNo;
  }

  private take(r: JsonObject): void {
    const s = this.state;
    const type = str(r['type']);
    const ts = str(r['timestamp']) ?? null;
    if (ts) {
      s.firstTs ??= ts;
      if (s.lastTs === null || ts > s.lastTs) s.lastTs = ts;
    }
    s.sessionId ??= str(r['sessionId']) ?? null;
    if (takeTitle(r, s)) return;
    if (type !== 'user' && type !== 'assistant') return;
    if (typeof r['uuid'] !== 'string') return;
    s.cwd ??= str(r['cwd']) ?? null;
    s.version = str(r['version']) ?? s.version;
    s.gitBranch = str(r['gitBranch']) ?? s.gitBranch;
    const sidechain = r['isSidechain'] === true;
    if (sidechain) s.agentId ??= str(r['agentId']) ?? null;
    // In a main file, inline sidechain records (old clients) are a subagent's, not this window's.
    const ownThread = s.subagentFile || !sidechain;
    const message = r['message'];
    if (!isObject(message)) return;
    if (type === 'user') this.takeUser(r, ownThread);
    else this.takeAssistant(r, message, ownThread, sidechain, ts);
  }

  private takeUser(r: JsonObject, ownThread: boolean): void {
    if (!ownThread) return;
    this.searchResults(r['message']);
    const { kind, promptText } = userRecordKind(r);
    if (kind !== 'prompt') return;
    this.state.turns++;
    if (promptText === null) return;
    this.state.firstPrompt ??= promptText.slice(0, PROMPT_CHARS);
    this.search.push(promptText.slice(0, SEARCH_PROMPT_CHARS));
  }

  /** The heads of the tool results a user record carries, for search. */
  private searchResults(message: unknown): void {
    if (!isObject(message) || !Array.isArray(message['content'])) return;
    for (const block of message['content']) {
      if (isObject(block) && block['type'] === 'tool_result' && this.searchText.wantsResults()) this.searchText.result(resultText(block));
    }
  }

  private takeAssistant(r: JsonObject, message: JsonObject, ownThread: boolean, sidechain: boolean, ts: string | null): void {
    const model = str(message['model']) ?? null;
    const usage = parseUsage(message['usage']);
    if (usage) {
      const id = str(message['id']);
      const key = id ? `${id}:${str(r['requestId']) ?? ''}` : `uuid:${String(r['uuid'])}`;
      const synthetic = isClientPlaceholder(r);
      const m: MessageUsage = {
        key,
        model,
        ts,
        sidechain,
        input: usage.inputTokens,
        output: usage.outputTokens,
        cacheCreation: usage.cacheCreationTokens,
        cacheRead: usage.cacheReadTokens,
        cacheCreation1h: usage.cacheCreation1hTokens,
      };
      if (synthetic) m.synthetic = true;
      // A later record of the same message carries the final usage of a streamed reply.
      if (!synthetic) this.messages.set(key, m);
      // A placeholder carries no real usage: the context is the last real request's (as in analysis).
      if (ownThread && !synthetic && m.input + m.cacheCreation + m.cacheRead > 0) {
        this.state.contextTokens = m.input + m.cacheCreation + m.cacheRead;
        this.state.lastModel = model;
      }
    }
    const content = message['content'];
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (isObject(block) && block['type'] === 'text' && ownThread) this.searchText.reply(str(block['text']) ?? '');
      if (!isObject(block) || block['type'] !== 'tool_use') continue;
      const input = block['input'];
      if (!isObject(input)) continue;
      for (const k of ['file_path', 'notebook_path', 'path']) {
        const p = str(input[k]);
        if (p && !this.seenPaths.has(p)) {
          this.seenPaths.add(p);
          this.search.push(p);
        }
      }
      const command = str(input['command']);
      if (command) this.search.push(command.slice(0, SEARCH_COMMAND_CHARS));
    }
  }
}

/** The text of a tool result's blocks. */
function resultText(block: JsonObject): string {
  const c = block['content'];
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c.map((part) => (isObject(part) && part['type'] === 'text' ? (str(part['text']) ?? '') : '')).join('\n');
}

/** Title records: the latest of each kind wins. True when the record was one. */
export function takeTitle(r: JsonObject, s: SummaryState): boolean {
  switch (r['type']) {
    case 'ai-title':
      s.ext['aiTitle'] = str(r['aiTitle']) ?? (s.ext['aiTitle'] as string | undefined) ?? null;
      return true;
    case 'custom-title':
      s.ext['customTitle'] = str(r['customTitle']) ?? str(r['title']) ?? (s.ext['customTitle'] as string | undefined) ?? null;
      return true;
    case 'summary':
      s.ext['summaryTitle'] = str(r['summary']) ?? (s.ext['summaryTitle'] as string | undefined) ?? null;
      return true;
    default:
      return false;
  }
}
