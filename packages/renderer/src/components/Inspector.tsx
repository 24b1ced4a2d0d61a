import { useEffect, useRef } from 'react';
import { visibleText } from '@glassbox/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { CLASS_COLOUR, CLASS_LABEL, HATCHED, shownClass, textOn } from '../palette';
import { ElidedSection } from './ElisionParts';
import { clock, exact, humanBytes, humanTokens } from '../format';
import { useApp } from '../store';
import { useNarrow } from '../use-narrow';

/** The selected segment: class badge, the proof in words, the link to what proves it, then the content or the drift diff. */
export function Inspector({ inert }: { inert?: boolean }) {
  const selected = useApp((s) => s.selectedSegmentId);
  const drawer = useNarrow();
  const open = drawer && selected !== null && !inert;
  const close = () => void useApp.getState().selectSegment(null);
  // On a narrow window the inspector is a drawer over the centre: Esc, its Close button or a click beside it closes it.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  // Nothing selected: on a narrow window the drawer stays out of the way.
  return (
    <>
      {open ? <div className="insp-backdrop" aria-hidden="true" onClick={close} data-testid="inspector-backdrop" /> : null}
      <aside className={`inspector${selected ? '' : ' nothing'}`} aria-label="Segment inspector" inert={inert}>
        <ResizeHandle />
        {open ? (
          <button type="button" className="insp-close" onClick={close} data-testid="inspector-close" title="Close the inspector (Esc)">
            Close
          </button>
        ) : null}
        <InspectorBody />
      </aside>
    </>
  );
}

/** Drag (or use the arrow keys on) the inspector's left edge to change its width. */
function ResizeHandle() {
  const width = useApp((s) => s.inspectorWidth);
  const setInspector = useApp((s) => s.setInspector);
  return (
    <div
      className="insp-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label="Inspector width"
      aria-valuenow={width}
      aria-valuemin={260}
      aria-valuemax={720}
      tabIndex={0}
      data-testid="inspector-resize"
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
          e.preventDefault();
          setInspector(true, width + (e.key === 'ArrowLeft' ? 24 : -24));
        }
      }}
      onPointerDown={(e) => {
        const startX = e.clientX;
        const start = width;
        const move = (m: PointerEvent) => setInspector(true, start + (startX - m.clientX));
        const up = () => {
          window.removeEventListener('pointermove', move);
          window.removeEventListener('pointerup', up);
        };
        window.addEventListener('pointermove', move);
        window.addEventListener('pointerup', up);
      }}
    />
  );
}

function InspectorBody() {
  const detail = useApp((s) => s.detail);
  const loading = useApp((s) => s.detailLoading);
  const selected = useApp((s) => s.selectedSegmentId);
  const selectSegment = useApp((s) => s.selectSegment);
  const view = useApp((s) => s.view);

  if (!view) return <div className="insp-body empty-pane" />;
  if (!selected || (!detail && !loading)) {
    return (
      <div className="insp-body empty-pane">
        <div className="hint">
          <h2>Segment</h2>
          <p>Click a block in the treemap (or Tab into it and use the arrow keys) to see its content and why it is live or dead.</p>
        </div>
      </div>
    );
  }
  if (!detail || detail.segment.id !== selected) {
    return (
      <div className="insp-body" aria-busy="true">
        <div className="loading">Reading the segment…</div>
      </div>
    );
  }
  const seg = detail.segment;
  const cls = shownClass(seg);
  const fill = CLASS_COLOUR[cls];
  const diff = seg.proof?.class === 'stale-drift' ? seg.proof.diff : null;
  return (
    <div className="insp-body" data-testid="inspector">
      <div className="insp-head">
        <span className={`badge${HATCHED.has(cls) ? ' hatched' : ''}`} style={{ background: fill, color: textOn(fill) }} data-testid="class-badge">
          {CLASS_LABEL[cls]}
        </span>
        {seg.protected && seg.class === 'live' ? <span className="tag">protected</span> : null}
        {seg.isError ? <span className="tag error">error</span> : null}
      </div>
      <h3 className="insp-source" title={visibleText(seg.source.path ?? seg.source.label)}>
        {visibleText(seg.source.label)}
      </h3>
      <div className="insp-meta">
        {seg.toolName ? `${visibleText(seg.toolName)} · ` : ''}
        {seg.kind} · {humanTokens(seg.tokens)} tokens · {humanBytes(seg.bytes)} · line {seg.line}
        {seg.timestamp ? ` · ${clock(seg.timestamp)}` : ''}
      </div>
      <p className="proof" data-testid="proof">
        {visibleText(detail.explanation)}
      </p>
      <button type="button" className="link" onClick={() => useApp.getState().showSegment(seg.id, 'conversation')} data-testid="show-in-conversation">
        Show in the conversation
      </button>
      {detail.provedBy ? (
        <button type="button" className="link" onClick={() => void selectSegment(detail.provedBy?.segmentId ?? null)} data-testid="jump">
          Jump to {visibleText(detail.provedBy.label)} →
        </button>
      ) : null}
      {diff ? (
        <section className="insp-section">
          <h4>What was read vs the file now</h4>
          <DiffView diff={diff} />
        </section>
      ) : null}
      {detail.elision ? <ElidedSection key={seg.id} path={view.snapshot.session.path} segmentId={seg.id} elision={detail.elision} /> : null}
      <section className="insp-section grow">
        <h4>
          Content <span className="dim">({exact(detail.contentBytes)} bytes{detail.truncated ? ', first 2 MB shown' : ''})</span>
        </h4>
        <ContentView text={detail.content} />
      </section>
    </div>
  );
}

function ContentView({ text }: { text: string }) {
  const parentRef = useRef<HTMLDivElement>(null);
  const lines = text.length === 0 ? ['(empty)'] : text.split('\n');
  // Read results already carry the file's line numbers (cat -n style): no second gutter then.
  const numbered = lines.slice(0, 3).every((l) => /^\s*\d+[\t\u2192]/.test(l));
  const v = useVirtualizer({ count: lines.length, getScrollElement: () => parentRef.current, estimateSize: () => 18, overscan: 20 });
  // Long lines wrap; each row is measured once drawn.
  return (
    <div ref={parentRef} className="content-view" data-testid="content" tabIndex={0} role="region" aria-label="Segment content">
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => (
          <div key={item.key} ref={v.measureElement} data-index={item.index} className="content-line" style={{ transform: `translateY(${item.start}px)` }}>
            {numbered ? null : <span className="ln">{item.index + 1}</span>}
            <span className="tx">{visibleText(lines[item.index] ?? '')}</span>
          </div>
        ))}
      </div>
    </div>
  );
}

function DiffView({ diff }: { diff: string }) {
  const lines = diff.split('\n').filter((l) => !l.startsWith('===') && l !== '\\ No newline at end of file');
  return (
    <pre className="diff" data-testid="diff" tabIndex={0} aria-label="Diff between what was read and the file now">
      {lines.map((l, i) => (
        <div key={i} className={l.startsWith('+++') || l.startsWith('---') ? 'hdr' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : l.startsWith('@@') ? 'hunk' : ''}>
          {visibleText(l) || ' '}
        </div>
      ))}
    </pre>
  );
}
