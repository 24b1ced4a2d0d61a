import './SearchSnippet.css';
import { visibleText } from '@glassbox/core';

/** A full-text hit's context under a row: text and matched words alternate (even: text, odd: a hit), never markup. */
export function SearchSnippet({ parts }: { parts: readonly string[] }) {
  return (
    <div className="row-meta row-snippet" data-testid="row-snippet">
      {parts.map((p, i) => (i % 2 === 1 ? <mark key={i}>{visibleText(p)}</mark> : <span key={i}>{visibleText(p)}</span>))}
    </div>
  );
}
