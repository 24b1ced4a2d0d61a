import { CLASS_REGISTRY, visibleText } from '@glassbox/core';
import { compactionHeading, headFacts, itemHeading, type ExportHead } from './export-words';
import type { Transcript, TranscriptItem } from './transcript';

/** Nothing loads from anywhere and nothing runs, whatever the transcript holds. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'";

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1c1c1c;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e4e4e4;background:#161616}.item{border-color:#444}pre{background:#222}}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.item{border-left:4px solid #bbb;padding:.3rem .8rem;margin:.8rem 0}
.item h3,.item summary{font-size:.95rem;margin:.2rem 0;overflow-wrap:anywhere}
.dead{border-left-color:#c0392b;background:rgba(192,57,43,.06)}.tombstone{border-left-color:#7f8c8d;font-style:italic}
.badge{font-size:.8rem;font-weight:600;padding:0 .4rem;border-radius:3px;background:#c0392b;color:#fff}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;padding:.5rem;margin:.3rem 0;max-height:none}
.compaction{border-top:3px double #888;margin:2rem 0 1rem;padding-top:.5rem}
.result{margin-left:1rem}
`;

/**
 * A session as one HTML file that needs nothing else: styles inline, no script (a tool call folds
 * open with <details>), every character of transcript text escaped, and a policy that loads nothing.
 */
export function transcriptHtml(head: ExportHead, t: Transcript): string {
  const out: string[] = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(visibleText(head.title))}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>${esc(visibleText(head.title))}</h1>`,
    '<dl>',
    ...headFacts(head, t).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`),
    '</dl>',
    '<main>',
  ];
  let mark = 0;
  t.items.forEach((it, i) => {
    while (mark < t.compactions.length && t.compactions[mark]!.before === i) out.push(compaction(compactionHeading(t.compactions[mark++]!)));
    out.push(item(it));
  });
  while (mark < t.compactions.length) out.push(compaction(compactionHeading(t.compactions[mark++]!)));
  out.push('</main></body></html>', '');
  return out.join('\n');
}

function compaction(heading: string): string {
  return `<h2 class="compaction">${esc(heading)}</h2>`;
}

function item(it: TranscriptItem): string {
  const cls = `item${it.dead ? ' dead' : ''}${it.class === 'tombstone' ? ' tombstone' : ''}`;
  const badge = it.dead ? ` <span class="badge">${esc(CLASS_REGISTRY[it.class].label)}</span>` : '';
  const body = `<pre>${esc(visibleText(it.text))}</pre>${it.cut > 0 ? `<p>(${it.cut.toLocaleString('en-US')} more characters not exported)</p>` : ''}`;
  if (it.kind !== 'tool-input') return `<section class="${cls}" data-class="${esc(it.class)}"><h3>${esc(itemHeading(it))}${badge}</h3>${body}</section>`;
  // A tool call folds its input and result away; its heading says what it did, and a dead result is named there too.
  const result = it.result ? `<div class="result">${item(it.result)}</div>` : '';
  const resultBadge = it.result?.dead && !it.dead ? ` <span class="badge">result: ${esc(CLASS_REGISTRY[it.result.class].label)}</span>` : '';
  return `<details class="${cls}" data-class="${esc(it.class)}"><summary>${esc(itemHeading(it))}${badge}${resultBadge}</summary>${body}${result}</details>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
