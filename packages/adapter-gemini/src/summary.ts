import { SearchText, contextTokens, emptySummaryState, type MessageUsage, type SummaryPass, type SummaryState, type TranscriptSummarizer, type UsageRecord } from '@glassbox/core';
import { GEMINI } from './identity';
import { byteLength } from './hash';
import { GeminiParser, type GeminiSession } from './parser';

const SEARCH_PROMPT_CHARS = 2000;

/**
 * The list's summary of a Gemini CLI chat, taken from the parser's own session — the list's turns,
 * context and cost are the analysis's by construction, not by a second reading of the records. A
 * saved state is never resumed (the format says `appendOnly: false`: a document is rewritten whole,
 * and a log's full-replace records can drop or re-id what came before), but a log's replay is
 * sequential, so a caller that keeps this summarizer in memory can feed it the lines appended since
 * and take `snapshot()` again: the same pass a fresh read of the whole file gives (see jobs.ts).
 */
export class GeminiSummarizer implements TranscriptSummarizer {
  readonly state: SummaryState;
  private readonly empty: SummaryState;
  private readonly parser = new GeminiParser({ path: '', keepCapturedText: false });
  private lines = 0;
  private offset = 0;

  constructor(state: SummaryState | null, subagentFile: boolean) {
    // A saved state is not resumed (see above): every pass starts empty.
    this.empty = emptySummaryState(GEMINI, state?.subagentFile ?? subagentFile);
    this.state = structuredClone(this.empty);
  }

  line(text: string): void {
    // Offsets as parseChatLines counts them (UTF-8 lengths, one newline each).
    const n = byteLength(text);
    this.lines++;
    this.parser.push(text, this.lines, this.offset, n);
    this.offset += n + 1;
  }

  finish(): SummaryPass {
    if (this.lines === 0) return { state: this.state, messages: [], searchText: '' };
    return summaryOf(this.parser.finish(true), this.state);
  }

  /** The pass so far without ending it, when more lines may follow (a log); null for a document or nothing yet. */
  snapshot(): SummaryPass | null {
    if (!this.parser.isLog()) return null;
    return summaryOf(this.parser.snapshot(), structuredClone(this.empty));
  }
}

/** Folds a parsed chat into a summary state: identity, prompts, the last reported context, every priced reply. */
function summaryOf(session: GeminiSession, state: SummaryState): SummaryPass {
  const fatal = session.problems.find((p) => p.severity === 'error');
  state.records = session.stats.records;
  if (fatal) {
    // Not a chat (or a document met mid-write): reported as the first invalid line, nothing counted.
    state.invalidLines = Math.max(1, session.stats.invalidLines);
    state.firstInvalidLine = fatal.line ?? 1;
    return { state, messages: [], searchText: '' };
  }
  state.invalidLines = session.stats.invalidLines;
  state.firstInvalidLine = session.problems.find((p) => p.code === 'invalid_json')?.line ?? null;
  state.sessionId = session.id || null;
  state.agentId = session.agentId ?? null;
  state.cwd = session.cwd;
  state.version = session.version;
  state.title = session.title;
  state.firstPrompt = session.firstPrompt;
  state.firstTs = session.firstTimestamp;
  state.lastTs = session.lastTimestamp;
  const nodes = session.order.map((u) => session.nodes.get(u)).filter((n) => n !== undefined);
  const prompts = nodes.filter((n) => n.kind === 'prompt' && !n.isSidechain);
  state.turns = prompts.length;
  const replies = nodes.filter((n) => n.kind === 'assistant' && n.usage);
  const last = [...replies].reverse().find((n) => !n.synthetic && n.usage && contextTokens(n.usage) > 0);
  state.contextTokens = last?.usage ? contextTokens(last.usage) : null;
  state.lastModel = [...replies].reverse().find((n) => n.model)?.model ?? null;
  const messages = new Map<string, MessageUsage>();
  const add = (r: UsageRecord) => {
    const key = `${r.messageId}:${r.requestId ?? ''}`;
    if (messages.has(key)) return;
    messages.set(key, {
      key,
      model: r.model,
      ts: r.timestamp ?? null,
      sidechain: r.isSidechain,
      input: r.usage.inputTokens,
      output: r.usage.outputTokens,
      cacheCreation: r.usage.cacheCreationTokens,
      cacheRead: r.usage.cacheReadTokens,
      cacheCreation1h: r.usage.cacheCreation1hTokens,
      ...(r.synthetic ? { synthetic: true } : {}),
    });
  };
  for (const p of session.prunedUsage ?? []) add(p);
  for (const n of replies) if (n.usage) add({ messageId: n.messageId ?? n.uuid, model: n.model ?? 'unknown', line: n.line, usage: n.usage, isSidechain: n.isSidechain, ...(n.timestamp ? { timestamp: n.timestamp } : {}) });
  const search = prompts.map((n) => (n.promptText ?? '').slice(0, SEARCH_PROMPT_CHARS));
  // Replies and tool results as the parser previews them (a chat is read whole on every pass).
  const more = new SearchText(search, state);
  for (const n of nodes) {
    for (const b of n.blocks) {
      if (n.kind === 'assistant' && b.kind === 'text') more.reply(b.preview);
      else if (b.kind === 'tool-result') more.result(b.preview);
    }
  }
  const searchText = search.join('\n');
  return { state, messages: [...messages.values()], searchText };
}

/** The tail reader: a chat's closing lines say nothing reliable on their own (a document's end is its last message's end), so the full pass fills the rest. */
export function readTail(): boolean {
  return false;
}
