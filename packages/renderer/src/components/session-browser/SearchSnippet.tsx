import './SearchSnippet.css';
import { visibleText } from '@glassbox/core';

/** Characters of context kept before the first hit: the row is narrow, and the hit must show. */
const LEAD_CHARS = 24;

/** A full-text hit's context under a row: text and matched words alternate (even: text, odd: a hit), never markup. */
export function SearchSnippet({ parts }: { parts: readonly string[] }) {
  const lead = parts[0] ?? '';
  const shown = lead.length > LEAD_CHARS ? [`…${lead.slice(-LEAD_CHARS).trimStart()}`, ...parts.slice(1)] : parts;
  return (
    <div className="row-meta row-snippet" data-testid="row-snippet" title={visibleText(parts.join(''))}>
      {shown.map((p, i) => (i % 2 === 1 ? <mark key={i}>{visibleText(p)}</mark> : <span key={i}>{visibleText(p)}</span>))}
    </div>
  );
}
