import { isObject, parseObject, str, type JsonObject } from '@glassbox/core';
import { partsOf, partsText } from './parts';
import { SNAPSHOT_TAG } from './rules';

/**
 * The summary of a compression, from the line its snapshot message is on (for the compaction x-ray):
 * a 0.39+ full replace (`$set.messages`) holds the whole new history on one line, so the snapshot is
 * the first user message there whose text starts with `<state_snapshot>`; a message record is read as it is.
 */
export function geminiCompactionSummary(line: string): string | null {
  const record = parseObject(line);
  if (!record) return null;
  const set = isObject(record['$set']) ? record['$set'] : null;
  const messages = set && Array.isArray(set['messages']) ? set['messages'] : [record];
  for (const m of messages) {
    if (!isObject(m) || str(m['type']) !== 'user') continue;
    const text = partsText(partsOf((m as JsonObject)['content']));
    if (text.trimStart().startsWith(SNAPSHOT_TAG)) return text.trim();
  }
  return null;
}
