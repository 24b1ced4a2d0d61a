import { SearchText, emptySummaryState, type MessageUsage, type SummaryPass, type SummaryState, type TranscriptSummarizer } from '@glassbox/core';
import { contentText, outputText } from '../blocks';
import { callArguments, shellCommandOf } from '../command';
import { normaliseRecord, recogniseFirstRecord, type RolloutRecord } from '../generation';
import { CODEX } from '../identity';
import { ASSISTANT_ITEMS, CLIENT_ONLY_ITEMS, OUTPUT_ITEMS, PROMPT_PREVIEW_CHARS, messageRole } from '../item-kinds';
import { isObject, parseObject, str, type JsonObject } from '../json';
import { parsePatch } from '../patch';
import { threadName } from '../thread-name';
import { fromSessionMeta, inheritedRecord } from '../inherited';
import { neutralUsage, parseTokenCount, type TokenCount } from '../usage';
import { isUnreadRecord, recordHead } from '../record-head';
import { readExt, writeExt, type CodexExt } from './state-ext';
import { replyCompaction, replyCount, replyItem, type ContextChange } from './replies';

const SEARCH_PROMPT_CHARS = 2000;
const SEARCH_COMMAND_CHARS = 500;


/**
 * The list's summary of a Codex rollout, line by line from a checkpoint. It reads records the way
 * the parser does — the same prompt rule (item-kinds.ts), the same `token_count` reading with its
 * repeats and zero counts skipped, the same grouping of a reply's items under the request that
 * reported their usage, the same reset at a compaction — so the list's turns, context figure and
 * cost are the analysis's. Lines that matter only for their timestamp (tool outputs, UI events,
 * world state) are recognised from their first bytes and not parsed (see record-head.ts).
 */
export class CodexSummarizer implements TranscriptSummarizer {
  readonly state: SummaryState;
  private readonly ext: CodexExt;
  private readonly messages: MessageUsage[] = [];
  private readonly search: string[] = [];
  private readonly seenPaths = new Set<string>();
  /** Replies and the heads of tool outputs, within the search budget. */
  private readonly searchText: SearchText;

  constructor(state: SummaryState | null, subagentFile: boolean) {
    this.state = state ?? emptySummaryState(CODEX, subagentFile);
    this.ext = readExt(this.state);
    this.searchText = new SearchText(this.search, this.state);
  }

  line(text: string, lineNo: number): void {
    if (this.ext.refused || text.trim() === '') return;
    if (this.ext.generation !== null && this.ext.generation !== 'bare' && this.passOver(text)) return;
    const value = parseObject(text);
    if (!value) {
      this.state.invalidLines++;
      this.state.firstInvalidLine ??= lineNo;
      return;
    }
    this.state.records++;
    if (this.ext.generation === null) {
      const r = recogniseFirstRecord(value);
      if (r.kind !== 'codex') {
        // Not a rollout this adapter can read: the line is reported, nothing after it is counted.
        this.ext.refused = true;
        this.state.invalidLines++;
        this.state.firstInvalidLine ??= lineNo;
        return;
      }
      this.ext.generation = r.generation;
    }
    const record = normaliseRecord(value, this.ext.generation, this.state.records === 1);
    if (record) this.take(record, lineNo);
  }

  finish(): SummaryPass {
    writeExt(this.state, this.ext);
    this.state.title = this.ext.threadName;
    if (this.state.title) this.search.unshift(this.state.title);
    return { state: this.state, messages: this.messages, searchText: this.search.join('\n') };
  }

  /** A line the summary needs only the timestamp of, taken from its head. True when passed over. */
  private passOver(text: string): boolean {
    const head = recordHead(text);
    // A line cut short is parsed (and reported) rather than trusted.
    if (!head || !text.endsWith('}')) return false;
    // Inside a copied parent history, an output may be the spawn output that ends it: it is read.
    if (this.ext.inherited.mode === 'copy' && head.type === 'response_item' && head.sub === 'function_call_output') return false;
    // An output is read for search while its budget lasts.
    if (head.type === 'response_item' && head.sub !== null && OUTPUT_ITEMS.has(head.sub) && this.searchText.wantsResults()) return false;
    const passive =
      isUnreadRecord(head, text) ||
      (head.type === 'response_item' && head.sub !== null && (OUTPUT_ITEMS.has(head.sub) || CLIENT_ONLY_ITEMS.has(head.sub) || head.sub === 'reasoning'));
    if (!passive) return false;
    this.state.records++;
    this.stamp(head.timestamp);
    // A reasoning item is part of the reply: it opens the reply's group like any assistant item.
    if (head.type === 'response_item' && head.sub === 'reasoning') this.assistantItem();
    return true;
  }

  private stamp(ts: string | undefined): void {
    if (!ts) return;
    this.state.firstTs ??= ts;
    if (this.state.lastTs === null || ts > this.state.lastTs) this.state.lastTs = ts;
  }

  private take(record: RolloutRecord, lineNo: number): void {
    const p = record.payload;
    this.stamp(record.timestamp);
    const e = this.ext;
    let inherited = false;
    if (this.state.records === 1 && record.type === 'session_meta') e.inherited = fromSessionMeta(p);
    else if (e.inherited.mode !== 'own') {
      const r = inheritedRecord(e.inherited, { type: record.type, payload: p, ordinal: record.ordinal });
      inherited = r.inherited;
      if (r.ended) {
        // As the parser: the parent's last reply takes no count of the thread's, and its usage is not listed.
        if (e.replies.group === 'open') e.replies.group = 'used';
        e.replies.pendingInput = null;
      }
    }
    // The copy's items are the thread's window as the parser reads them; its header and its usage are the parent's.
    if (inherited && (record.type === 'session_meta' || (record.type === 'event_msg' && p['type'] === 'token_count'))) {
      if (record.type === 'event_msg') {
        // Its running total is the baseline the thread's own counts continue from (see reply-groups.ts).
        const total = parseTokenCount(p)?.cumulativeTotal;
        if (total != null) e.lastCumulative = total;
      }
      return;
    }
    switch (record.type) {
      case 'session_meta':
        this.takeMeta(p);
        return;
      case 'turn_context':
        this.ext.model = str(p['model']) ?? this.ext.model;
        return;
      case 'response_item':
        this.takeItem(p);
        return;
      case 'compacted':
        this.takeCompacted(p);
        return;
      case 'event_msg':
        if (p['type'] === 'token_count') this.takeTokenCount(p, lineNo, record.timestamp ?? null);
        else if (p['type'] === 'thread_name_updated') this.ext.threadName = threadName(p);
        return;
      default:
        return;
    }
  }

  private takeMeta(p: JsonObject): void {
    const s = this.state;
    s.sessionId ??= str(p['id']) ?? null;
    s.cwd ??= str(p['cwd']) ?? null;
    s.version ??= str(p['cli_version']) ?? null;
    const git = p['git'];
    if (isObject(git)) s.gitBranch ??= str(git['branch']) ?? null;
  }

  private takeItem(item: JsonObject): void {
    const type = str(item['type']) ?? '';
    if (type === 'message') {
      const role = str(item['role']) ?? '';
      const text = contentText(item['content']);
      const kind = messageRole(role, text, false);
      if (kind === 'assistant') {
        this.assistantItem();
        this.searchText.reply(text);
      }
      else if (kind === 'prompt') {
        this.state.turns++;
        this.state.firstPrompt ??= text.slice(0, PROMPT_PREVIEW_CHARS);
        this.search.push(text.slice(0, SEARCH_PROMPT_CHARS));
      }
      return;
    }
    if (OUTPUT_ITEMS.has(type)) {
      if (this.searchText.wantsResults()) this.searchText.result(outputText(item['output']));
      return;
    }
    if (!ASSISTANT_ITEMS.has(type)) return;
    this.assistantItem();
    if (type === 'function_call' || type === 'local_shell_call') this.searchCommand(item);
    else if (type === 'custom_tool_call' && item['name'] === 'apply_patch') this.searchPatch(str(item['input']) ?? '');
  }

  /** An item of the model's reply: see replies.ts for which request's usage it carries. */
  private assistantItem(): void {
    this.apply(replyItem(this.ext.replies, this.ext.generation === 'envelope'));
  }

  private apply(change: ContextChange | null): void {
    if (!change) return;
    this.state.contextTokens = change.context;
    this.state.lastModel = change.context === null ? null : this.ext.model;
  }

  private takeTokenCount(p: JsonObject, lineNo: number, ts: string | null): void {
    const e = this.ext;
    const tc = parseTokenCount(p);
    if (!tc) return;
    // Codex writes the same count twice at times; an unchanged running total is not a new request.
    if (tc.cumulativeTotal !== null && tc.cumulativeTotal === e.lastCumulative) return;
    e.lastCumulative = tc.cumulativeTotal ?? e.lastCumulative;
    // After a compaction, a count of zero but for Codex's estimate of the new history: no request.
    if (tc.last.input === 0 && tc.last.output === 0) return;
    this.messages.push(messageOf(tc.last, lineNo, e.model, ts));
    this.apply(replyCount(e.replies, tc.last.input, e.generation === 'envelope'));
  }

  /** A compaction lets the window go: until a reply in the new window reports, there is no reported context. */
  private takeCompacted(p: JsonObject): void {
    // Without its replacement history, 2026 Codex ignores a compaction (it replays everything).
    if (!Array.isArray(p['replacement_history']) && this.ext.generation === 'paginated') return;
    this.apply(replyCompaction(this.ext.replies, this.ext.generation === 'envelope'));
  }

  private searchCommand(item: JsonObject): void {
    const args = item['type'] === 'local_shell_call' ? (isObject(item['action']) ? item['action'] : null) : callArguments(item);
    const exec = args && isObject(args['exec']) ? args['exec'] : args;
    const cmd = shellCommandOf(str(item['name']) ?? 'local_shell', exec);
    if (cmd) this.search.push(cmd.script.slice(0, SEARCH_COMMAND_CHARS));
  }

  private searchPatch(input: string): void {
    for (const f of parsePatch(input) ?? []) {
      if (this.seenPaths.has(f.path)) continue;
      this.seenPaths.add(f.path);
      this.search.push(f.path);
    }
  }
}

function messageOf(last: TokenCount['last'], lineNo: number, model: string, ts: string | null): MessageUsage {
  const u = neutralUsage(last);
  return { key: `L${lineNo}`, model, ts, sidechain: false, input: u.inputTokens, output: u.outputTokens, cacheCreation: 0, cacheRead: u.cacheReadTokens, cacheCreation1h: 0 };
}
