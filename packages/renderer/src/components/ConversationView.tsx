import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import './ConversationView.css';
import { visibleText } from '@glassbox/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ConversationCompaction, ConversationItem, ConversationView as Conversation, IpcError } from '@glassbox/contract';
import { CLASS_COLOUR, CLASS_LABEL } from '../palette';
import { humanTokens, tokenCount } from '../format';
import { useApp } from '../store';
import { findHits, hitsLabel } from '../conversation-find';
import { conversationRows, itemCount, rowOfSegment, type ConversationRow } from '../conversation-rows';
import { ExportButtons } from './ExportButtons';

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

/** Kinds read folded to their heading and first lines until opened: tool calls (with their results) and what the client adds. */
const FOLDED_KINDS = new Set(['tool-input', 'attachment', 'compact-summary', 'meta']);

/** Text past this many characters or lines is clamped until "show more". */
const CLAMP_CHARS = 600;
const CLAMP_LINES = 8;

/**
 * The whole session read in order, virtualised: every window from the first prompt, each compaction
 * in place, prompts, replies, tool calls folded with their results, attachments as what they carry;
 * dead segments marked by class, tombstones as such. Find steps through hits; an item of the window
 * the model reads now can be shown in the treemap, and the treemap's selection scrolls here.
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
    setConv(null);
    void api.invoke('session:conversation', { path }).then((r) => {
      if (!live) return;
      if (r.ok) setConv(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [api, path]);

  const rows = useMemo(() => (conv ? conversationRows(conv) : []), [conv]);
  // One entry per hit (the row it is in): the count and Enter step through hits, not items.
  const matches = useMemo(() => findHits(rows, find), [rows, find]);
  // Rows opened by hand: "show more" on a long payload, a tool call unfolded.
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const v = useVirtualizer({ count: rows.length, getScrollElement: () => parentRef.current, estimateSize: () => 72, overscan: 8, getItemKey: (i) => rows[i]?.key ?? i });

  // Arriving from the treemap or the inspector: scroll to the segment asked for (else the selected one).
  useEffect(() => {
    const id = target ?? selectedId;
    if (!id || rows.length === 0) return;
    const i = rowOfSegment(rows, id);
    if (i >= 0) v.scrollToIndex(i, { align: 'center' });
    // Only when the target or the loaded rows change.
  }, [target, rows.length]);

  const go = (n: number) => {
    if (matches.length === 0) return;
    const k = ((n % matches.length) + matches.length) % matches.length;
    setHit(k);
    v.scrollToIndex(matches[k] as number, { align: 'center' });
  };

  if (error) return <div className="error-box" role="alert">{error.message}</div>;
  if (!conv) return <div className="loading">Reading the conversation…</div>;
  const current = matches[hit];
  const q = find.trim();
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
          {q ? hitsLabel(matches, hit) : wholeLabel(conv)}
        </span>
        <button type="button" onClick={() => go(hit - 1)} disabled={matches.length === 0} aria-label="Previous match" title={matches.length === 0 ? 'No match to go to' : undefined}>
          ↑
        </button>
        <button type="button" onClick={() => go(hit + 1)} disabled={matches.length === 0} aria-label="Next match" title={matches.length === 0 ? 'No match to go to' : undefined}>
          ↓
        </button>
        <ExportButtons path={path} />
      </div>
      <div ref={parentRef} className="conv-list" tabIndex={0} role="region" aria-label="The whole session in order">
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((vi) => {
            const row = rows[vi.index];
            if (!row) return null;
            return (
              <div key={vi.key} ref={v.measureElement} data-index={vi.index} className="conv-slot" style={{ transform: `translateY(${vi.start}px)` }}>
                {row.type === 'compaction' ? (
                  <CompactionRow c={row.compaction} current={vi.index === current} />
                ) : (
                  <ItemRow
                    row={row}
                    index={vi.index}
                    total={rows.length}
                    selectedId={selectedId}
                    current={vi.index === current}
                    find={q}
                    open={open}
                    onToggle={toggle}
                    onSelect={(id) => void selectSegment(id)}
                    onShow={(id) => showSegment(id, 'treemap')}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

function wholeLabel(conv: Conversation): string {
  const n = itemCount(conv);
  const c = conv.compactions.length;
  if (conv.fromLastCompaction) return `${n.toLocaleString('en-US')} items, from the last compaction (what came before cannot be rebuilt for this agent yet)`;
  const base = `${n.toLocaleString('en-US')} items, the whole session`;
  const compacted = c > 0 ? ` · ${c} compaction${c === 1 ? '' : 's'} shown in place` : '';
  const unreached = conv.unreached > 0 ? ` · ${conv.unreached} more on branches the conversation no longer reaches (not shown)` : '';
  return base + compacted + unreached;
}

function CompactionRow({ c, current }: { c: ConversationCompaction; current: boolean }) {
  const size = c.preTokens !== null ? `${humanTokens(c.preTokens)} tokens before` : 'size before not reported';
  const after = c.postTokens !== null ? ` · ${humanTokens(c.postTokens)} on the next request` : '';
  return (
    <div className={`conv-compaction${current ? ' current' : ''}`} role="separator" aria-label={`Compaction ${c.index}, ${c.trigger}`} data-testid="conv-compaction">
      <span className="conv-kind">compaction {c.index}</span>
      <span>
        {c.trigger}
        {c.at ? ` · ${c.at.replace('T', ' ').slice(0, 19)}` : ''} · line {c.line.toLocaleString('en-US')} · {size} → a summary of {humanTokens(c.summaryTokens)}
        {after}
      </span>
      <span className="dim">Everything above was replaced by the summary below.</span>
    </div>
  );
}

interface ItemRowProps {
  row: Extract<ConversationRow, { type: 'item' }>;
  index: number;
  total: number;
  selectedId: string | null;
  current: boolean;
  find: string;
  open: ReadonlySet<string>;
  onToggle: (key: string) => void;
  onSelect: (segmentId: string) => void;
  onShow: (segmentId: string) => void;
}

function ItemRow({ row, index, total, selectedId, current, find, open, onToggle, onSelect, onShow }: ItemRowProps) {
  const { item } = row;
  const selected = item.segmentId === selectedId;
  const call = FOLDED_KINDS.has(item.kind);
  // Folded to its heading and first lines until opened (a hit on it, or its result selected, opens it).
  const resultSelected = item.result !== undefined && item.result.segmentId === selectedId;
  const unfolded = !call || open.has(`fold:${item.segmentId}`) || (current && find !== '') || resultSelected;
  const dead = item.dead || item.result?.dead === true;
  return (
    <article
      className={`conv-item kind-${item.kind}${item.class !== 'live' ? ' dead' : ''}${selected ? ' selected' : ''}${current ? ' current' : ''}${item.resident ? '' : ' earlier'}`}
      style={item.class !== 'live' ? { borderLeftColor: CLASS_COLOUR[item.class] } : undefined}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-label={ariaOf(item)}
      data-testid="conv-item"
      data-class={item.class}
      data-kind={item.kind}
      data-window={item.window}
      data-segment={item.segmentId}
      data-dead={dead ? 'true' : 'false'}
      onClick={() => (item.resident ? onSelect(item.segmentId) : undefined)}
    >
      <Head
        item={item}
        onShow={onShow}
        fold={
          call ? (
            <button
              type="button"
              className="link conv-fold"
              aria-expanded={unfolded}
              aria-controls={`conv-body-${item.segmentId}`}
              data-testid="conv-fold"
              onClick={(e) => {
                e.stopPropagation();
                onToggle(`fold:${item.segmentId}`);
              }}
            >
              {unfolded ? 'fold' : `open${item.result ? ' call and result' : ''}`}
            </button>
          ) : null
        }
      />
      <div id={`conv-body-${item.segmentId}`} className={unfolded ? undefined : 'conv-folded'}>
        <Body item={item} find={find} expanded={open.has(item.segmentId)} onExpand={() => onToggle(item.segmentId)} />
        {item.result ? (
          <div
            className={`conv-result${item.result.class !== 'live' ? ' dead' : ''}${resultSelected ? ' selected' : ''}`}
            style={item.result.class !== 'live' ? { borderLeftColor: CLASS_COLOUR[item.result.class] } : undefined}
            data-testid="conv-result"
            data-class={item.result.class}
            data-segment={item.result.segmentId}
            onClick={(e) => {
              if (!item.result?.resident) return;
              e.stopPropagation();
              onSelect(item.result.segmentId);
            }}
          >
            <Head item={item.result} onShow={onShow} />
            <Body item={item.result} find={find} expanded={open.has(item.result.segmentId)} onExpand={() => onToggle(item.result!.segmentId)} />
          </div>
        ) : null}
      </div>
    </article>
  );
}

function ariaOf(item: ConversationItem): string {
  const kind = item.class === 'tombstone' ? 'tombstone' : (KIND_LABEL[item.kind] ?? item.kind);
  const result = item.result ? `, with its result (${CLASS_LABEL[item.result.class]}, ${humanTokens(item.result.tokens)} tokens)` : '';
  const where = item.resident ? '' : `, before compaction ${item.window + 1}`;
  return `${kind}${item.toolName ? ` ${visibleText(item.toolName)}` : ''} ${visibleText(item.attachment ?? item.label)}, ${CLASS_LABEL[item.class]}, ${humanTokens(item.tokens)} tokens${result}${where}`;
}

function Head({ item, onShow, fold = null }: { item: ConversationItem; onShow: (segmentId: string) => void; fold?: ReactNode }) {
  const kind = item.class === 'tombstone' ? 'tombstone' : (KIND_LABEL[item.kind] ?? item.kind);
  const label = item.attachment ?? (item.label === item.toolName || ['assistant-text', 'prompt', 'thinking', 'tool-result'].includes(item.kind) ? '' : item.label);
  return (
    <header className="conv-head">
      <span className="conv-kind">{kind}</span>
      {item.toolName && item.kind !== 'attachment' && item.kind !== 'tool-result' ? <span className="conv-tool">{visibleText(item.toolName)}</span> : null}
      <span className="conv-label" title={visibleText(label)}>
        {visibleText(label)}
      </span>
      {item.class !== 'live' ? (
        <span className="conv-class" style={{ background: CLASS_COLOUR[item.class] }} data-testid="conv-class">
          {CLASS_LABEL[item.class]}
        </span>
      ) : null}
      <span className="dim num">{tokenCount(item.tokens)}</span>
      {fold}
      {item.resident ? (
        <button
          type="button"
          className="link conv-show"
          aria-label={`Show ${KIND_LABEL[item.kind] ?? item.kind} at line ${item.line} in treemap`}
          onClick={(e) => {
            e.stopPropagation();
            onShow(item.segmentId);
          }}
          data-testid="show-in-treemap"
        >
          in treemap
        </button>
      ) : null}
    </header>
  );
}

function Body({ item, find, expanded, onExpand }: { item: ConversationItem; find: string; expanded: boolean; onExpand: () => void }) {
  // Long payloads are clamped; "show more" opens them in place (the inspector or an export has the rest of a cut one).
  const long = item.text.length > CLAMP_CHARS || item.text.split('\n').length > CLAMP_LINES || item.cut > 0;
  const rest = item.resident ? 'select it to read all in the inspector' : 'export the session to read all of it';
  return (
    <>
      <div className={`conv-text${expanded ? ' expanded' : ''}`} id={`conv-text-${item.segmentId}`}>
        <Highlighted text={visibleText(item.text)} find={find} />
        {item.cut > 0 && expanded ? <span className="dim"> … {item.cut.toLocaleString('en-US')} more characters ({rest})</span> : null}
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
    </>
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
