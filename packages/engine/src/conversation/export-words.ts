import { CLASS_REGISTRY, visibleText } from '@glassbox/core';
import type { CompactionMark, Transcript, TranscriptItem } from './transcript';

/** What an export says about the session it is of, at its head. */
export interface ExportHead {
  title: string;
  sessionId: string;
  agent: string;
  path: string;
  cwd: string | null;
  /** When it was exported (ISO). */
  at: string;
}

const KIND_WORDS: Record<string, string> = {
  prompt: 'Prompt',
  'assistant-text': 'Reply',
  thinking: 'Thinking',
  'tool-input': 'Tool call',
  'tool-result': 'Tool result',
  attachment: 'Attachment',
  'compact-summary': 'Compaction summary',
  meta: 'Harness text',
};

/** "Tool call Read src/a.ts · line 12 · 1.2k tokens · dead: stale · superseded", shown text only. */
export function itemHeading(it: TranscriptItem): string {
  const kind = it.class === 'tombstone' ? 'Tombstone' : (KIND_WORDS[it.kind] ?? it.kind);
  const what = it.attachment ?? (it.label === it.toolName ? '' : it.label);
  const parts = [[kind, it.toolName ?? '', it.kind === 'prompt' || it.kind === 'assistant-text' || it.kind === 'thinking' ? '' : what].filter(Boolean).join(' ')];
  parts.push(`line ${it.line}`, `${it.tokens.toLocaleString('en-US')} tokens`);
  if (it.dead) parts.push(`DEAD: ${CLASS_REGISTRY[it.class].label}`);
  return visibleText(parts.join(' · '));
}

export function compactionHeading(c: CompactionMark): string {
  const size = c.preTokens !== null ? `, ${c.preTokens.toLocaleString('en-US')} tokens before` : '';
  return visibleText(`Compaction ${c.index} (${c.trigger}${c.at ? `, ${c.at}` : ''}, line ${c.line}${size})`);
}

/** The export's opening lines, as label and value. */
export function headFacts(head: ExportHead, t: Transcript): [string, string][] {
  const all = t.items.flatMap((i) => (i.result ? [i, i.result] : [i]));
  const dead = all.filter((i) => i.dead);
  const facts: [string, string][] = [
    ['Session', head.sessionId],
    ['Agent', head.agent],
    ['File', head.path],
    ['Working directory', head.cwd ?? 'not recorded'],
    ['Exported', head.at],
    ['Items', `${all.length} (${dead.length} dead, ${dead.reduce((n, i) => n + i.tokens, 0).toLocaleString('en-US')} tokens a fork would remove)`],
    ['Compactions', t.fromLastCompaction ? 'compacted; this export starts at the last compaction (what came before cannot be rebuilt for this agent yet)' : `${t.compactions.length}${t.unreached > 0 ? ` on the live conversation; ${t.unreached} more on branches it no longer reaches, not shown` : ''}`],
  ];
  return facts.map(([k, v]) => [k, visibleText(v)]);
}
