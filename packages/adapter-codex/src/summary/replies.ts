/**
 * Which request's usage the window's items carry, as the parser attaches it (parser.ts, `Group`):
 * the items of one model reply form a group, and a `token_count` gives its usage —
 * - 2026 (`paginated`): the count follows the reply's items; it closes the open group;
 * - 2025 (`envelope`): the count comes first (its repeat after the items); it closes the group and
 *   waits for the next reply's items.
 * A compaction lets the window's items go. The window's reported context is the input of the last
 * group with items in the window and usage (as the analysis calibrates it). The list summary keeps
 * this state from pass to pass; the tail reader starts it where nothing is known (`unknown`).
 */
export interface ReplyState {
  group: 'none' | 'unknown' | 'open' | 'used';
  /** Items of the open group still in the window. */
  items: number;
  /** Input tokens of the usage the open group carries (2025 only: it came before the items). */
  groupInput: number | null;
  /** A 2025 count waiting for its reply's items. */
  pendingInput: number | null;
}

export interface ContextChange {
  /** The window's reported context is now known to be this (null: none since a compaction). */
  context: number | null;
}

export function initialReplies(known: boolean): ReplyState {
  return { group: known ? 'none' : 'unknown', items: 0, groupInput: null, pendingInput: null };
}

/** An item of the model's reply (a message, reasoning, a call). */
export function replyItem(s: ReplyState, countFirst: boolean): ContextChange | null {
  if (s.group === 'unknown') {
    // 2026: whether it opened a group or joined one, the group is open with items now.
    if (!countFirst) {
      s.group = 'open';
      s.items = 1;
    }
    return null;
  }
  if (s.group !== 'open') {
    s.group = 'open';
    s.items = 0;
    s.groupInput = null;
    if (countFirst && s.pendingInput !== null) {
      s.groupInput = s.pendingInput;
      s.pendingInput = null;
    }
  }
  s.items++;
  return s.groupInput !== null && s.groupInput > 0 ? { context: s.groupInput } : null;
}

/** A new request's count (repeats and zero counts already skipped). */
export function replyCount(s: ReplyState, input: number, countFirst: boolean): ContextChange | null {
  if (countFirst) {
    s.group = 'used';
    s.pendingInput = input;
    return null;
  }
  const attached = s.group === 'open' && s.items > 0;
  s.group = 'used';
  return attached && input > 0 ? { context: input } : null;
}

/** A compaction that takes effect: the window's items are let go. */
export function replyCompaction(s: ReplyState, countFirst: boolean): ContextChange | null {
  s.items = 0;
  if (s.group === 'unknown') {
    // 2025: an open group's usage (unknown here) would come back with its next item.
    if (countFirst) return null;
    s.group = 'used';
  }
  return { context: null };
}
