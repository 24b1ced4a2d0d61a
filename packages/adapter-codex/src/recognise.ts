import type { Recognition } from '@glassbox/core';
import { recogniseFirstRecord } from './generation';
import { parseObject } from './json';

/**
 * Whether a file's first lines are a Codex rollout: its first JSON object decides, as for the parser
 * (docs/codex/format.md, "Generations"). A rollout of an unknown generation is still Codex's: the
 * parser then refuses it with the reason, which is the most useful thing to tell. Lines that are not
 * JSON objects are skipped (a torn first line must not hide the rest).
 */
export function recogniseCodex(head: readonly string[]): Recognition {
  for (const text of head) {
    if (text.trim() === '') continue;
    const record = parseObject(text);
    if (!record) continue;
    const r = recogniseFirstRecord(record);
    if (r.kind === 'codex' || r.kind === 'unknown-generation') return { verdict: 'yes' };
    if (r.kind === 'claude-code') return { verdict: 'no', what: 'a Claude Code transcript' };
    return { verdict: 'no' };
  }
  return { verdict: 'unknown' };
}
