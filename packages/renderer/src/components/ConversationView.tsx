import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import './ConversationView.css';
import { visibleText } from '@glassbox/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ConversationItem, ConversationView as Conversation, IpcError } from '@glassbox/contract';
import { CLASS_COLOUR, CLASS_LABEL } from '../palette';
import { humanTokens } from '../format';
import { useApp } from '../store';
import { findHits, hitsLabel } from '../conversation-find';

const KIND_LABEL: Record<string, string> = {
  prompt: 'prompt',
  'assistant-text': 'reply',
  thinking: 'thinking',
  'tool-input': 'tool call',
  'tool-result': 'tool result',
  attachment: 'attachment',
  'compact-summary': 'compaction summary',
  meta: 'harness text',
};

/**
 * The resident window read in order, virtualised: prompts, replies, tool calls and results, the
 * compaction summary; dead segments marked by class, tombstones as such. Find moves between matches;
 * "show in treemap" selects the segment there, and the treemap's selection scrolls here.
 */
export function ConversationView({ path }: { path: string }) {
  const api = useApp((s) => s.api);
  const selectedId = useApp((s) => s.selectedSegmentId);
  const target = useApp((s) => s.conversationTarget);
  const selectSegment = useApp((s) => s.selectSegment);
  const showSegment = useApp((s) => s.showSegment);
  const [conv, setConv] = useState<Conversation | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [find, setFind] = useState('');
  const [hit, setHit] = useState(0);
  const parentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    void api.invoke('session:conversation', { path }).then((r) => {
      if (!live) return;
      if (r.ok) setConv(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [api, path]);

  const items = conv?.items ?? [];
  // One entry per hit (the item it is in): the count and Enter step through hits, not items.
  const matches = useMemo(() => findHits(items, find), [items, find]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const v = useVirtualizer({ count: items.length, getScrollElement: () => parentRef.current, estimateSize: () => 96, overscan: 6, getItemKey: (i) => items[i]?.segmentId ?? i });

  // Arriving from the treemap or the inspector: scroll to the segment asked for (else the selected one).
  useEffect(() => {
    const id = target ?? selectedId;
    if (!id || items.length === 0) return;
    const i = items.findIndex((it) => it.segmentId === id);
    if (i >= 0) v.scrollToIndex(i, { align: 'center' });
    // Only when the target or the loaded items change.
  }, [target, items.length]);

  const go = (n: number) => {
    if (matches.length === 0) return;
    const k = ((n % matches.length) + matches.length) % matches.length;
    setHit(k);
    v.scrollToIndex(matches[k] as number, { align: 'center' });
  };

  if (error) return <div className="error-box" role="alert">{error.message}</div>;
  if (!conv) return <div className="loading">Reading the conversation…</div>;
  const current = matches[hit];
  return (
    <section className="conversation" aria-label="Conversation" data-testid="conversation">
      <div className="conv-find" role="search">
        <input
          type="search"
          placeholder="Find in this session"
          aria-label="Find in this session"
          value={find}
          data-testid="conv-find"
          onChange={(e) => {
            setFind(e.target.value);
            setHit(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              go(e.shiftKey ? hit - 1 : find === '' ? 0 : hit + (matches[hit] === undefined ? 0 : 1));
            }
          }}
        />
        <span className="dim" role="status" data-testid="conv-matches">
          {find.trim() ? hitsLabel(matches, hit) : `${items.length} items in the window${conv.compacted ? ', from the last compaction' : ''}`}
        </span>
        <button type="button" onClick={() => go(hit - 1)} disabled={matches.length === 0} aria-label="Previous match">
          ↑
        </button>
        <button type="button" onClick={() => go(hit + 1)} disabled={matches.length === 0} aria-label="Next match">
          ↓
        </button>
      </div>
      <div ref={parentRef} className="conv-list" tabIndex={0} role="region" aria-label="The resident window in order">
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((vi) => {
            const it = items[vi.index];
            if (!it) return null;
            return (
              <div key={vi.key} ref={v.measureElement} data-index={vi.index} className="conv-slot" style={{ transform: `translateY(${vi.start}px)` }}>
                <Item
                  item={it}
                  index={vi.index}
                  total={items.length}
                  selected={it.segmentId === selectedId}
                  current={vi.index === current}
                  find={find.trim()}
                  onSelect={() => void selectSegment(it.segmentId)}
                  onShow={() => showSegment(it.segmentId, 'treemap')}
                  expanded={expanded.has(it.segmentId)}
                  onExpand={() =>
                    setExpanded((was) => {
                      const next = new Set(was);
                      if (next.has(it.segmentId)) next.delete(it.segmentId);
                      else next.add(it.segmentId);
                      return next;
                    })
                  }
                />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

function Item({ item, index, total, selected, current, find, onSelect, onShow, expanded, onExpand }: { item: ConversationItem; index: number; total: number; selected: boolean; current: boolean; find: string; onSelect: () => void; onShow: () => void; expanded: boolean; onExpand: () => void }) {
  // Long payloads are clamped; "show more" opens them in place (the inspector has all of a cut one).
  const long = item.text.length > 600 || item.text.split('\n').length > 8;
  const dead = item.class !== 'live';
  const kind = item.class === 'tombstone' ? 'tombstone' : (KIND_LABEL[item.kind] ?? item.kind);
  return (
    <article
      className={`conv-item kind-${item.kind}${dead ? ' dead' : ''}${selected ? ' selected' : ''}${current ? ' current' : ''}`}
      style={dead ? { borderLeftColor: CLASS_COLOUR[item.class] } : undefined}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-label={`${kind}${item.toolName ? ` ${visibleText(item.toolName)}` : ''} ${visibleText(item.label)}, ${CLASS_LABEL[item.class]}, ${humanTokens(item.tokens)} tokens`}
      data-testid="conv-item"
      data-class={item.class}
      data-segment={item.segmentId}
      onClick={onSelect}
    >
      <header className="conv-head">
        <span className="conv-kind">{kind}</span>
        {item.toolName && item.kind !== 'attachment' ? <span className="conv-tool">{visibleText(item.toolName)}</span> : null}
        <span className="conv-label" title={visibleText(item.label)}>
          {item.label === item.toolName || ['assistant-text', 'prompt', 'thinking'].includes(item.kind) ? '' : visibleText(item.label)}
        </span>
        {dead ? (
          <span className="conv-class" style={{ background: CLASS_COLOUR[item.class] }} data-testid="conv-class">
            {CLASS_LABEL[item.class]}
          </span>
        ) : null}
        <span className="dim num">{humanTokens(item.tokens)}</span>
        <button
          type="button"
          className="link"
          onClick={(e) => {
            e.stopPropagation();
            onShow();
          }}
          data-testid="show-in-treemap"
        >
          show in treemap
        </button>
      </header>
      <div className={`conv-text${expanded ? ' expanded' : ''}`} id={`conv-text-${item.segmentId}`}>
        <Highlighted text={visibleText(item.text)} find={find} />
        {item.cut > 0 && expanded ? <span className="dim"> … {item.cut.toLocaleString('en-US')} more characters (select it to read all in the inspector)</span> : null}
      </div>
      {long ? (
        <button
          type="button"
          className="link conv-more"
          aria-expanded={expanded}
          aria-controls={`conv-text-${item.segmentId}`}
          onClick={(e) => {
            e.stopPropagation();
            onExpand();
          }}
          data-testid="conv-more"
        >
          {expanded ? 'show less' : 'show more'}
        </button>
      ) : null}
    </article>
  );
}

function Highlighted({ text, find }: { text: string; find: string }) {
  if (!find) return <>{text}</>;
  const lower = text.toLowerCase();
  const q = find.toLowerCase();
  const out: ReactNode[] = [];
  let from = 0;
  for (let i = lower.indexOf(q); i >= 0 && out.length < 200; i = lower.indexOf(q, i + q.length)) {
    out.push(text.slice(from, i), <mark key={i}>{text.slice(i, i + q.length)}</mark>);
    from = i + q.length;
  }
  out.push(text.slice(from));
  return <>{out}</>;
}
