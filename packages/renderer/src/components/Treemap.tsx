import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { ClassifiedSnapshot } from '@glassbox/core';
import { CLASS_COLOUR, CLASS_LABEL, HATCHED, textOn } from '../palette';
import { exact, humanTokens } from '../format';
import { GROUP_HEADER, layoutTreemap, leavesOf, neighbour, type Tile } from '../treemap-layout';
import { useApp } from '../store';

interface Hover {
  tile: Tile;
  x: number;
  y: number;
}

/** The resident window as a treemap: area = tokens, colour = class; drill down class → source → segment. */
export function Treemap({ snapshot }: { snapshot: ClassifiedSnapshot }) {
  const groupBy = useApp((s) => s.groupBy);
  const zoom = useApp((s) => s.zoom);
  const setZoom = useApp((s) => s.setZoom);
  const selectedId = useApp((s) => s.selectedSegmentId);
  const selectSegment = useApp((s) => s.selectSegment);
  const boxRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [hover, setHover] = useState<Hover | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);

  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ width: el.clientWidth, height: el.clientHeight }));
    ro.observe(el);
    setSize({ width: el.clientWidth, height: el.clientHeight });
    return () => ro.disconnect();
  }, []);

  const showUnattributed = useApp((s) => s.showUnattributed);
  const leaves = useMemo(() => leavesOf(snapshot, groupBy, showUnattributed), [snapshot, groupBy, showUnattributed]);
  const layout = useMemo(
    () => layoutTreemap(leaves, { width: size.width, height: size.height, zoom, groupBy }),
    [leaves, size.width, size.height, zoom, groupBy],
  );
  const byId = useMemo(() => new Map(layout.tiles.map((t) => [t.id, t])), [layout]);

  const activate = (t: Tile) => {
    if (t.kind === 'segment') void selectSegment(t.id);
    else if (t.kind === 'merged') drill(t);
  };
  const drill = (t: Tile) => {
    if (zoom.length === 0) setZoom([t.g1]);
    else if (zoom.length === 1) setZoom([t.g1, t.g2]);
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const current = (focusId && byId.get(focusId)) || (selectedId && byId.get(selectedId)) || layout.tiles[0];
    if (!current) return;
    const dirs: Record<string, 'left' | 'right' | 'up' | 'down'> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };
    const dir = dirs[e.key];
    if (dir) {
      e.preventDefault();
      const next = focusId ? neighbour(layout.tiles, current, dir) : current;
      if (next) setFocusId(next.id);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      activate(current);
    } else if (e.key === 'Escape' && zoom.length > 0) {
      e.preventDefault();
      e.stopPropagation();
      setZoom(zoom.slice(0, -1));
    }
  };

  const tileAt = (e: MouseEvent): Tile | null => {
    const id = (e.target as HTMLElement).closest<HTMLElement>('[data-tile]')?.dataset['tile'];
    return id ? (byId.get(id) ?? null) : null;
  };

  const focused = focusId ? byId.get(focusId) : undefined;
  return (
    <div className="treemap-wrap">
      <div
        ref={boxRef}
        className="treemap"
        tabIndex={0}
        role="application"
        aria-label="Treemap of the resident context. Arrow keys move, Enter selects, Escape goes up a level."
        data-testid="treemap"
        onKeyDown={onKey}
        onMouseMove={(e) => {
          const t = tileAt(e);
          const box = boxRef.current?.getBoundingClientRect();
          setHover(t && box ? { tile: t, x: e.clientX - box.left, y: e.clientY - box.top } : null);
        }}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => {
          const t = tileAt(e);
          if (t) {
            setFocusId(t.id);
            activate(t);
          }
        }}
        onDoubleClick={(e) => {
          const t = tileAt(e);
          if (t) drill(t);
        }}
      >
        {layout.groups.map((g) => (
          <div
            key={`g:${g.depth}:${g.key}`}
            className={`tm-group depth-${g.depth}`}
            style={{ left: g.x0, top: g.y0, width: g.x1 - g.x0, height: g.y1 - g.y0 }}
          >
            {g.header && g.x1 - g.x0 > 40 ? (
              <button
                type="button"
                className="tm-group-label"
                style={{ height: GROUP_HEADER - 2 }}
                title={`Drill into ${g.label}`}
                onClick={(e) => {
                  e.stopPropagation();
                  setZoom([g.key]);
                }}
              >
                <span>{g.label}</span>
                <span className="num">{humanTokens(g.tokens)}</span>
              </button>
            ) : null}
          </div>
        ))}
        {layout.tiles.map((t) => {
          const w = t.x1 - t.x0;
          const h = t.y1 - t.y0;
          const fill = CLASS_COLOUR[t.cls];
          return (
            <div
              key={t.id}
              data-tile={t.id}
              data-class={t.cls}
              data-kind={t.kind}
              className={`tm-tile${HATCHED.has(t.cls) ? ' hatched' : ''}${t.kind === 'merged' ? ' merged' : ''}${t.id === selectedId ? ' selected' : ''}${t.id === focused?.id ? ' focused' : ''}`}
              style={{ left: t.x0, top: t.y0, width: w, height: h, background: fill, color: textOn(fill) }}
            >
              {w > 40 && h > 16 ? <span className="tm-label">{shortLabel(t.label)}</span> : null}
              {w > 40 && h > 32 ? <span className="tm-size">{humanTokens(t.tokens)}</span> : null}
            </div>
          );
        })}
        {hover ? <Tooltip hover={hover} width={size.width} /> : null}
        {layout.tiles.length === 0 && size.width > 0 ? <div className="tm-empty">Nothing resident to show.</div> : null}
      </div>
    </div>
  );
}

function Tooltip({ hover, width }: { hover: Hover; width: number }) {
  const t = hover.tile;
  const left = Math.min(hover.x + 14, Math.max(0, width - 300));
  return (
    <div className="tm-tooltip" style={{ left, top: hover.y + 16 }} role="tooltip">
      <div className="tt-source">{t.label}</div>
      <div className="tt-line">
        <span className="swatch" style={{ background: CLASS_COLOUR[t.cls] }} /> {CLASS_LABEL[t.cls]}
      </div>
      <div className="tt-line">
        {humanTokens(t.tokens)} tokens <span className="dim">({exact(t.tokens)}{t.kind === 'unattributed' ? '' : ' estimated'})</span>
      </div>
      {t.kind === 'merged' ? <div className="tt-line dim">{t.count} segments too small to draw — double-click to drill in</div> : null}
      {t.kind === 'unattributed' ? <div className="tt-line dim">reported total minus what the transcript accounts for</div> : null}
    </div>
  );
}

function shortLabel(label: string): string {
  const parts = label.split('/');
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : label;
}
