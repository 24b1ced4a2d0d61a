/**
 * The resumable summary of one transcript file that the session list shows. Each agent's adapter
 * computes it line by line (the same record interpretation its parser uses); the store keeps the
 * state, which is small and JSON-serialisable, so an appended file is summarised from its saved byte
 * offset only. Usage is additive: each API response is keyed, and the state keeps the last keys so
 * that a response whose records straddle two passes is not counted twice.
 */
export const SUMMARY_STATE_VERSION = 2;

export interface SummaryState {
  v: typeof SUMMARY_STATE_VERSION;
  /** The adapter that wrote it (a state is only resumed by the same agent). */
  agent: string;
  subagentFile: boolean;
  sessionId: string | null;
  agentId: string | null;
  cwd: string | null;
  version: string | null;
  gitBranch: string | null;
  title: string | null;
  firstPrompt: string | null;
  firstTs: string | null;
  lastTs: string | null;
  /** Prompts the person gave (the same count as the analysis's). */
  turns: number;
  records: number;
  invalidLines: number;
  firstInvalidLine: number | null;
  /** Provider-reported context of the last response of the file's own thread. */
  contextTokens: number | null;
  lastModel: string | null;
  /** Hex of the bytes just before the saved offset: if they changed, the file was rewritten, not appended. */
  anchor: string | null;
  /** Totals over every API response so far (folded in by the store from each pass's responses). */
  totals: UsageTotals;
  /** The last responses counted, newest last: a response continued in the next pass replaces its own figures. */
  recent: RecentMessage[];
  /** Adapter-private facts it needs to resume (JSON only), e.g. which title source won. */
  ext: Record<string, string | number | boolean | null>;
}


/** Usage of a number of replies, in the order every cost report shows it (an hour, a day, a project). */
export interface ReplyTotals {
  messages: number;
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  /** USD of the priced messages. */
  cost: number;
  /** Messages on a model with no price: `cost` leaves them out. */
  unpriced: number;
}

/** A session's usage as its summary keeps it (`apiMessages`: the replies the provider billed). */
export type UsageTotals = Omit<ReplyTotals, 'messages'> & { apiMessages: number };

/** [key, input, output, cache creation, cache read, cost (null: no price)] */
export type RecentMessage = [string, number, number, number, number, number | null];

/** Provider-reported usage of one API response (the final figures when streamed over several records). */
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
  /** A placeholder the client wrote itself (no model ran): it costs nothing. */
  synthetic?: boolean;
}

/** What one pass over some lines found, ready to be stored. */
export interface SummaryPass {
  state: SummaryState;
  messages: MessageUsage[];
  searchText: string;
}

/** Feeds lines (without newline) into a summary state. */
export interface TranscriptSummarizer {
  readonly state: SummaryState;
  /**
   * One line. `record`: what JSON.parse made of it when the caller parsed it already (the session's
   * reader, in an index pass that summarises and analyses a file in one read); absent, the summarizer
   * parses what it needs. The state is the same either way.
   */
  line(text: string, lineNo: number, record?: unknown): void;
  finish(): SummaryPass;
  /**
   * The whole file's pass so far, without ending it: more lines may be fed and a snapshot taken again.
   * For an agent whose saved state cannot be resumed (`appendOnly: false`) but whose summarizer can go
   * on in memory (a log replayed in order); null when this file cannot (a document).
   */
  snapshot?(): SummaryPass | null;
}

export function zeroTotals(): UsageTotals {
  return { apiMessages: 0, input: 0, output: 0, cacheCreation: 0, cacheRead: 0, cost: 0, unpriced: 0 };
}

export function emptySummaryState(agent: string, subagentFile: boolean): SummaryState {
  return {
    v: SUMMARY_STATE_VERSION,
    agent,
    subagentFile,
    sessionId: null,
    agentId: null,
    cwd: null,
    version: null,
    gitBranch: null,
    title: null,
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
    ext: {},
  };
}

/** A saved state can be resumed only by the adapter that wrote it, at the current version. */
export function isResumableState(raw: unknown, agent: string): raw is SummaryState {
  if (typeof raw !== 'object' || raw === null) return false;
  const s = raw as Partial<SummaryState>;
  return s.v === SUMMARY_STATE_VERSION && s.agent === agent && typeof s.totals === 'object' && Array.isArray(s.recent);
}
