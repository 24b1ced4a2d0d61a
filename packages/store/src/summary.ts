/**
 * The resumable summary of one session file: what the session list shows, computed line by line
 * from a checkpoint. Its state is small and JSON-serialisable (identity, counters, the last
 * reported context, usage and cost totals), so an appended file is summarised from its saved byte
 * offset only. Usage is additive: each API message is keyed by message id + request id; within a
 * pass a reply streamed over several records (or split by parallel tool calls) counts once with its
 * final usage, and the checkpoint keeps the last messages' keys (see totals.ts) so that a reply
 * whose records straddle two passes is not counted twice. Figures that depend on the whole chain (the resident window,
 * reclaimable tokens by class) are not resumable; they come from a full analysis run later
 * (see analyze-job.ts) and are marked stale until it catches up.
 */
export interface SummaryState {
  v: 1;
  subagentFile: boolean;
  sessionId: string | null;
  agentId: string | null;
  cwd: string | null;
  version: string | null;
  gitBranch: string | null;
  aiTitle: string | null;
  customTitle: string | null;
  summaryTitle: string | null;
  firstPrompt: string | null;
  firstTs: string | null;
  lastTs: string | null;
  turns: number;
  records: number;
  invalidLines: number;
  firstInvalidLine: number | null;
  contextTokens: number | null;
  lastModel: string | null;
  /** Hex of the bytes just before the saved offset: if they changed, the file was rewritten, not appended. */
  anchor: string | null;
  /** Totals over every API message so far (folded in by the indexer from each pass's messages). */
  totals: UsageTotals;
  /** The last messages counted, newest last: a reply continued in the next pass replaces its own figures. */
  recent: RecentMessage[];
}

export interface UsageTotals {
  apiMessages: number;
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  /** USD of the priced messages. */
  cost: number;
  /** Messages whose model has no price. */
  unpriced: number;
}

/** [key, input, output, cache creation, cache read, cost (null: no price)] */
export type RecentMessage = [string, number, number, number, number, number | null];

export function zeroTotals(): UsageTotals {
  return { apiMessages: 0, input: 0, output: 0, cacheCreation: 0, cacheRead: 0, cost: 0, unpriced: 0 };
}

export function emptyState(subagentFile: boolean): SummaryState {
  return {
    v: 1,
    subagentFile,
    sessionId: null,
    agentId: null,
    cwd: null,
    version: null,
    gitBranch: null,
    aiTitle: null,
    customTitle: null,
    summaryTitle: null,
    firstPrompt: null,
    firstTs: null,
    lastTs: null,
    turns: 0,
    records: 0,
    invalidLines: 0,
    firstInvalidLine: null,
    contextTokens: null,
    lastModel: null,
    anchor: null,
    totals: zeroTotals(),
    recent: [],
  };
}

export function titleOf(s: SummaryState): string | null {
  return s.customTitle ?? s.aiTitle ?? s.summaryTitle ?? null;
}

/** Provider-reported usage of one API message (the final figures when streamed over several records). */
export interface MessageUsage {
  key: string;
  model: string | null;
  ts: string | null;
  sidechain: boolean;
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  cacheCreation1h: number;
}

const PROMPT_CHARS = 400;
const SEARCH_PROMPT_CHARS = 2000;
const SEARCH_COMMAND_CHARS = 500;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Tool-result records are most of a transcript's bytes and the summary needs nothing inside them but
 * the timestamp. The client writes compact JSON, and inside a JSON string a quote is always escaped,
 * so this exact unescaped text appears only as the structure of a tool result block.
 */
const TOOL_RESULT_MARK = '"type":"tool_result"';

/** Feeds lines into a summary state; collects the pass's messages and searchable text. */
export class SummaryAccumulator {
  readonly state: SummaryState;
  private readonly messages = new Map<string, MessageUsage>();
  private readonly search: string[] = [];
  private readonly seenPaths = new Set<string>();
  private skipped: { text: string; line: number } | null = null;

  constructor(state: SummaryState) {
    this.state = state;
  }

  line(text: string, lineNo: number): void {
    if (text.length === 0) return;
    if (text.includes(TOOL_RESULT_MARK) && text.startsWith('{')) {
      // Deferred: parsed only if it turns out to be the pass's last line (for the last activity time).
      this.state.records++;
      this.skipped = { text, line: lineNo };
      return;
    }
    this.skipped = null;
    this.parse(text, lineNo, true);
  }

  /** Ends the pass: what it found, ready to be stored. */
  finish(): { state: SummaryState; messages: MessageUsage[]; searchText: string } {
    if (this.skipped) {
      this.parse(this.skipped.text, this.skipped.line, false);
      this.skipped = null;
    }
    const title = titleOf(this.state);
    if (title) this.search.unshift(title);
    return { state: this.state, messages: [...this.messages.values()], searchText: this.search.join('\n') };
  }

  private parse(text: string, lineNo: number, count: boolean): void {
    let r: unknown;
    try {
      r = JSON.parse(text);
    } catch {
      if (/^\s*$/.test(text)) return;
      this.state.invalidLines++;
      this.state.firstInvalidLine ??= lineNo;
      return;
    }
    if (!isObj(r)) {
      this.state.invalidLines++;
      this.state.firstInvalidLine ??= lineNo;
      return;
    }
    if (count) this.state.records++;
    this.take(r);
  }

  private take(r: Obj): void {
    const s = this.state;
    const type = str(r['type']);
    const ts = str(r['timestamp']);
    if (ts) {
      s.firstTs ??= ts;
      if (s.lastTs === null || ts > s.lastTs) s.lastTs = ts;
    }
    s.sessionId ??= str(r['sessionId']);
    switch (type) {
      case 'ai-title':
        s.aiTitle = str(r['aiTitle']) ?? s.aiTitle;
        return;
      case 'custom-title':
        s.customTitle = str(r['customTitle']) ?? str(r['title']) ?? s.customTitle;
        return;
      case 'summary':
        s.summaryTitle = str(r['summary']) ?? s.summaryTitle;
        return;
      case 'user':
      case 'assistant':
        break;
      default:
        return;
    }
    if (typeof r['uuid'] !== 'string') return;
    s.cwd ??= str(r['cwd']);
    s.version = str(r['version']) ?? s.version;
    s.gitBranch = str(r['gitBranch']) ?? s.gitBranch;
    const sidechain = r['isSidechain'] === true;
    if (sidechain) s.agentId ??= str(r['agentId']);
    // In a main file, inline sidechain records (old clients) are a subagent's, not this window's.
    const ownThread = s.subagentFile || !sidechain;
    const message = r['message'];
    if (!isObj(message)) return;
    if (type === 'user') this.takeUser(r, message, ownThread);
    else this.takeAssistant(r, message, ownThread, sidechain, ts);
  }

  private takeUser(r: Obj, message: Obj, ownThread: boolean): void {
    if (r['isMeta'] === true || r['isCompactSummary'] === true || !ownThread) return;
    const content = message['content'];
    let text: string | null = null;
    if (typeof content === 'string') text = content;
    else if (Array.isArray(content)) {
      for (const block of content) {
        if (!isObj(block)) continue;
        if (block['type'] === 'tool_result') return;
        if (block['type'] === 'text' && text === null) text = str(block['text']);
      }
    }
    if (text === null || isHarnessText(text)) return;
    this.state.turns++;
    this.state.firstPrompt ??= text.slice(0, PROMPT_CHARS);
    this.search.push(text.slice(0, SEARCH_PROMPT_CHARS));
  }

  private takeAssistant(r: Obj, message: Obj, ownThread: boolean, sidechain: boolean, ts: string | null): void {
    const model = str(message['model']);
    const usage = message['usage'];
    if (isObj(usage) && model !== '<synthetic>') {
      const id = str(message['id']);
      const key = id ? `${id}:${str(r['requestId']) ?? ''}` : `uuid:${String(r['uuid'])}`;
      const cache = usage['cache_creation'];
      const m: MessageUsage = {
        key,
        model,
        ts,
        sidechain,
        input: num(usage['input_tokens']),
        output: num(usage['output_tokens']),
        cacheCreation: num(usage['cache_creation_input_tokens']),
        cacheRead: num(usage['cache_read_input_tokens']),
        cacheCreation1h: isObj(cache) ? num(cache['ephemeral_1h_input_tokens']) : 0,
      };
      // A later record of the same message carries the final usage of a streamed reply.
      this.messages.set(key, m);
      // An API error record carries zero usage: the context is the last real request's (as in analysis).
      if (ownThread && m.input + m.cacheCreation + m.cacheRead > 0) {
        this.state.contextTokens = m.input + m.cacheCreation + m.cacheRead;
        this.state.lastModel = model;
      }
    }
    const content = message['content'];
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isObj(block) || block['type'] !== 'tool_use') continue;
      const input = block['input'];
      if (!isObj(input)) continue;
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

/** Text the harness writes into user records (command echoes, interruptions): not a user's prompt. */
function isHarnessText(text: string): boolean {
  return (
    text.startsWith('<command-name>') ||
    text.startsWith('<command-message>') ||
    text.startsWith('<local-command-') ||
    text.startsWith('<bash-input>') ||
    text.startsWith('<bash-stdout>') ||
    text.startsWith('[Request interrupted')
  );
}
