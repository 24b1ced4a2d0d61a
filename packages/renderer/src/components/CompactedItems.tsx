import { useEffect, useRef, useState } from 'react';
import './CompactedItems.css';
import { visibleText } from '@glassbox/core';
import type { CompactionItem, CompactionReport } from '@glassbox/core';
import type { CompactionItemText, GlassboxApi } from '@glassbox/contract';
import { tokenCount } from '../format';
import { itemLabel, summaryHas } from '../compaction-labels';

/**
 * A list of compacted items: the dropped ones largest first, or the whole window before the compaction
 * in conversation order. Each row opens its exact text, which can be copied.
 */
export function CompactedItems({
  api,
  path,
  agentId,
  cwd,
  report,
  mode,
  selected,
  onSelect,
  onJump,
}: {
  api: GlassboxApi;
  path: string;
  agentId: string | null;
  cwd: string | null;
  report: CompactionReport;
  mode: 'dropped' | 'window';
  selected: string | null;
  onSelect(item: CompactionItem): void;
  onJump(item: CompactionItem): void;
}) {
  const items = mode === 'dropped' ? report.xray.dropped : [...report.xray.kept, ...report.xray.dropped].sort((a, b) => a.line - b.line || a.segmentId.localeCompare(b.segmentId));
  const selectedRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    selectedRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [selected, mode]);
  if (items.length === 0) return <p className="dim">{mode === 'dropped' ? 'Nothing was dropped: every segment was kept, attached again or named by the summary.' : 'The window before this compaction is not in the file.'}</p>;
  return (
    <>
    <div className="cx-row cx-items-head" aria-hidden="true" data-testid="cx-items-head">
      <span className="num">tokens</span>
      <span>line</span>
      <span className="what">item</span>
      <span className="has">what the summary holds of it</span>
    </div>
    <ul className="cx-items" aria-label={mode === 'dropped' ? 'Dropped, largest first' : 'The window before the compaction, in order'} data-testid={`cx-${mode}`}>
      {items.map((item) => {
        const isSelected = item.segmentId === selected;
        return (
          <li key={item.segmentId} ref={isSelected ? selectedRef : undefined} className={`cx-item carried-${item.carried}${isSelected ? ' selected' : ''}`}>
            <button type="button" className="cx-row" aria-expanded={isSelected} onClick={() => onSelect(item)}>
              <span className="num">{tokenCount(item.tokens)}</span>
              <span className="dim">line {item.line}</span>
              <span className="what">
                {item.kind} {itemLabel(item, cwd)}
              </span>
              <span className="has">
                <span className="sr-only">the summary holds: </span>
                {summaryHas(item)}
              </span>
              {item.dead ? <span className="badge dead-anyway">dead anyway ({item.class})</span> : item.isError ? <span className="badge error">an error</span> : null}
            </button>
            {isSelected ? <ItemText api={api} path={path} agentId={agentId} index={report.xray.index} item={item} onJump={mode === 'dropped' ? () => onJump(item) : null} /> : null}
          </li>
        );
      })}
    </ul>
    </>
  );
}

function ItemText({ api, path, agentId, index, item, onJump }: { api: GlassboxApi; path: string; agentId: string | null; index: number; item: CompactionItem; onJump: (() => void) | null }) {
  const [text, setText] = useState<CompactionItemText | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    void api.invoke('compaction:item', { path, agentId, index, segmentId: item.segmentId }).then((r) => {
      if (!live) return;
      if (r.ok) setText(r.value);
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [api, path, agentId, index, item.segmentId]);
  return (
    <div className="cx-text">
      <div className="cx-actions">
        <button
          type="button"
          disabled={!text}
          onClick={() => {
            if (!text) return;
            void navigator.clipboard?.writeText(text.text).then(
              () => setCopied(true),
              () => setError('The clipboard refused the text; select it below instead.'),
            );
          }}
        >
          {copied ? 'Copied' : 'Copy exact text'}
        </button>
        {onJump ? (
          <button type="button" onClick={onJump}>
            Show in the conversation before
          </button>
        ) : null}
        <span className="dim">
          {text ? `${text.bytes.toLocaleString('en-US')} bytes · line ${text.line}${text.truncated ? ' · cut for display' : ''}` : error ? '' : 'Reading it back from the transcript…'}
        </span>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {text ? <pre data-testid="cx-item-text">{visibleText(text.text)}</pre> : null}
    </div>
  );
}
