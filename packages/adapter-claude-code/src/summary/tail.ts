import type { SummaryState } from '@glassbox/core';
import { parseUsage } from '../parser';
import { isObject, str } from '../record-types';
import { titleOf, takeTitle } from './summarizer';
import { isClientPlaceholder } from './placeholder';

/**
 * Reads a file's closing lines (in file order) into a state that so far knows only the file's head:
 * the newest timestamp and titles, and the last reported context, walking from the last line back.
 * True when the last reported context was found (the caller may otherwise read further back).
 */
export function readTail(lines: readonly string[], state: SummaryState): boolean {
  const seen = new Set<unknown>();
  let found = false;
  for (let i = lines.length - 1; i >= 0 && !found; i--) {
    let r: unknown;
    try {
      r = JSON.parse(lines[i] as string);
    } catch {
      continue;
    }
    if (!isObject(r)) continue;
    const ts = str(r['timestamp']);
    if (ts && (state.lastTs === null || ts > state.lastTs)) state.lastTs = ts;
    // Walking backwards: the first title record met is the latest one; keep it.
    const kind = r['type'];
    if (!seen.has(kind) && takeTitle(r, state)) seen.add(kind);
    if (kind !== 'assistant' || (r['isSidechain'] === true && !state.subagentFile)) continue;
    state.version = str(r['version']) ?? state.version;
    state.gitBranch = str(r['gitBranch']) ?? state.gitBranch;
    const m = r['message'];
    const u = isObject(m) ? parseUsage(m['usage']) : undefined;
    if (!isObject(m) || !u || isClientPlaceholder(r)) continue;
    const context = u.inputTokens + u.cacheCreationTokens + u.cacheReadTokens;
    if (context === 0) continue;
    state.contextTokens = context;
    state.lastModel = str(m['model']) ?? null;
    found = true;
  }
  state.title = titleOf(state);
  return found;
}
