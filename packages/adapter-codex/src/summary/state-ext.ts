import { SEARCH_EXT_KEYS, type SummaryState } from '@glassbox/core';
import type { Generation } from '../generation';
import { readInherited, type InheritedState } from '../inherited';
import { initialReplies, type ReplyState } from './replies';

/**
 * What the Codex summary carries from one pass to the next in the state's adapter-private `ext`
 * (JSON only): the file's generation, the model of the latest turn, the last running token total
 * (to skip repeated counts), and where the current reply stands (replies.ts).
 */
export interface CodexExt {
  generation: Generation | null;
  refused: boolean;
  model: string;
  lastCumulative: number | null;
  replies: ReplyState;
  threadName: string | null;
  /** Whether the lines are a forked thread's copy of its parent's history (inherited.ts). */
  inherited: InheritedState;
}

/** The parser's model name before any turn_context names one. */
const NO_MODEL = 'unknown';

export function readExt(state: SummaryState): CodexExt {
  const x = state.ext;
  const s = (k: string): string | null => (typeof x[k] === 'string' ? (x[k] as string) : null);
  const n = (k: string): number | null => (typeof x[k] === 'number' ? (x[k] as number) : null);
  const generation = s('generation');
  return {
    generation: generation === 'bare' || generation === 'envelope' || generation === 'paginated' ? generation : null,
    refused: x['refused'] === true,
    model: s('model') ?? NO_MODEL,
    lastCumulative: n('lastCumulative'),
    replies: {
      group: s('group') === 'open' || s('group') === 'used' ? (s('group') as 'open' | 'used') : initialReplies(true).group,
      items: n('groupItems') ?? 0,
      groupInput: n('groupInput'),
      pendingInput: n('pendingInput'),
    },
    threadName: s('threadName'),
    inherited: readInherited({ mode: x['inheritedMode'], before: x['inheritedBefore'] }),
  };
}

export function writeExt(state: SummaryState, e: CodexExt): void {
  const search = Object.fromEntries(SEARCH_EXT_KEYS.filter((k) => state.ext[k] !== undefined).map((k) => [k, state.ext[k] ?? null]));
  state.ext = {
    ...search,
    generation: e.generation,
    refused: e.refused,
    model: e.model,
    lastCumulative: e.lastCumulative,
    group: e.replies.group,
    groupItems: e.replies.items,
    groupInput: e.replies.groupInput,
    pendingInput: e.replies.pendingInput,
    threadName: e.threadName,
    inheritedMode: e.inherited.mode,
    inheritedBefore: e.inherited.before,
  };
}

