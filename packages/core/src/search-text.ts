import type { SummaryState } from './summary';

/**
 * How much of a session's replies and tool results the list's full-text search holds: the head of
 * each, up to a budget per file, so the index stays a small fraction of the transcripts (a tool result
 * is read for search only while its budget lasts; after that its line is passed over, as before).
 */
export const SEARCH_LIMITS = {
  /** Characters of one reply, and of all of a file's replies. */
  replyChars: 1_000,
  replyBudget: 24_000,
  /** Characters of one tool result, and of all of a file's results. */
  resultChars: 300,
  resultBudget: 16_000,
} as const;

const USED_REPLIES = 'searchReplyChars';
const USED_RESULTS = 'searchResultChars';
/** The state's keys the search counts in: an adapter that rewrites its `ext` carries them over. */
export const SEARCH_EXT_KEYS: readonly string[] = [USED_REPLIES, USED_RESULTS];

/** A summarizer's search text, with the replies and results it takes counted in its state (a resumed pass goes on counting). */
export class SearchText {
  constructor(
    private readonly out: string[],
    private readonly state: SummaryState,
  ) {}

  /** True while tool results still fit: a summarizer parses a result line only then. */
  wantsResults(): boolean {
    return this.used(USED_RESULTS) < SEARCH_LIMITS.resultBudget;
  }

  reply(text: string): void {
    this.take(text, USED_REPLIES, SEARCH_LIMITS.replyChars, SEARCH_LIMITS.replyBudget);
  }

  result(text: string): void {
    this.take(text, USED_RESULTS, SEARCH_LIMITS.resultChars, SEARCH_LIMITS.resultBudget);
  }

  private take(text: string, key: string, each: number, budget: number): void {
    const room = Math.min(each, budget - this.used(key));
    const t = text.trim();
    if (room <= 0 || t.length === 0) return;
    const piece = t.slice(0, room);
    this.out.push(piece);
    this.state.ext[key] = this.used(key) + piece.length;
  }

  private used(key: string): number {
    const v = this.state.ext[key];
    return typeof v === 'number' ? v : 0;
  }
}
