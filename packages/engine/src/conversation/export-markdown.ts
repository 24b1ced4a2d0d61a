import { visibleText } from '@glassbox/core';
import { compactionHeading, headFacts, itemHeading, type ExportHead } from './export-words';
import type { Transcript, TranscriptItem } from './transcript';

/**
 * A session as Markdown: a heading per item, its text in a fence longer than any run of backticks in
 * it (so nothing a transcript holds can close the fence or become markup), compactions as rules.
 */
export function transcriptMarkdown(head: ExportHead, t: Transcript): string {
  const out: string[] = [`# ${inline(head.title)}`, ''];
  for (const [k, v] of headFacts(head, t)) out.push(`- **${k}:** ${inline(v)}`);
  out.push('');
  let mark = 0;
  t.items.forEach((it, i) => {
    while (mark < t.compactions.length && t.compactions[mark]!.before === i) out.push('---', '', `## ${inline(compactionHeading(t.compactions[mark++]!))}`, '');
    item(out, it, '###');
    if (it.result) item(out, it.result, '####');
  });
  while (mark < t.compactions.length) out.push('---', '', `## ${inline(compactionHeading(t.compactions[mark++]!))}`, '');
  return out.join('\n');
}

function item(out: string[], it: TranscriptItem, level: string): void {
  out.push(`${level} ${inline(itemHeading(it))}`, '', ...fenced(visibleText(it.text)), '');
  if (it.cut > 0) out.push(`(${it.cut.toLocaleString('en-US')} more characters not exported)`, '');
}

/** A fenced block that its text cannot end: one backtick more than its longest run. */
function fenced(text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence + 'text', text, fence];
}

/** One line of text with Markdown's punctuation escaped (a label, a path, a title). */
function inline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()<>#+\-.!|~&]/g, (c) => `\\${c}`);
}
