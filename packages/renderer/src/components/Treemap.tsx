import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { visibleText } from '@glassbox/core';
import type { ClassifiedSnapshot } from '@glassbox/core';
import { CLASS_COLOUR, CLASS_LABEL, HATCHED, textOn } from '../palette';
import { exact, humanTokens } from '../format';
import { fitHeader, fitName, splitPathLabel } from '../labels';
import { labelMeasure } from '../text-measure';
import { GROUP_HEADER, layoutTreemap, leavesOf, neighbour, tileAt, type GroupTile, type Tile } from '../treemap-layout';
import { useApp } from '../store';
import { paintTiles } from '../treemap-canvas';

interface Hover {
  tile: Tile;
  x: number;
  y: number;
}

/**
 * Tiles at least this big (px²) are elements with their label; smaller ones are painted on a canvas
 * under them. The elements are few (the box holds at most area / this many), so a window of 50,000
 * segments costs what its visible tiles cost. The focused and the selected tile are always elements,
 * and so are dead tiles — what a person came to find — while there are at most DEAD_ELEMENTS of them.
 */
const ELEMENT_MIN_AREA = 1200;
const DEAD_ELEMENTS = 300;
const isDead = (t: Tile) => t.cls !== 'live' && t.cls !== 'unattributed';

const optionId = (i: number) => `tm-opt-${i}`;

/** The resident window as a treemap: area = tokens, colour = class; drill down class → source → segment. */
export function Treemap({ snapshot }: { snapshot: ClassifiedSnapshot }) {
  const groupBy = useApp((s) => s.groupBy);
  const zoom = useApp((s) => s.zoom);
  const setZoom = useApp((s) => s.setZoom);
  const selectedId = useApp((s) => s.selectedSegmentId);
  const selectSegment = useApp((s) => s.selectSegment);
  const highlight = useApp((s) => s.highlightIds);
  const showUnattributed = useApp((s) => s.showUnattributed);
  const deadOnly = useApp((s) => s.deadOnly);
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
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

  const leaves = useMemo(() => leavesOf(snapshot, groupBy, showUnattributed, deadOnly), [snapshot, groupBy, showUnattributed, deadOnly]);
  const highlighted = useMemo(() => new Set(highlight), [highlight]);
  const base = useMemo(() => layoutTreemap(leaves, { width: size.width, height: size.height, zoom, groupBy }), [leaves, size.width, size.height, zoom, groupBy]);
  const baseIds = useMemo(() => new Set(base.tiles.map((t) => t.id)), [base]);
  // A segment selected or shown from elsewhere that was merged into a "small segments" tile gets a
  // tile of its own (a second layout, only then: selecting a drawn tile never lays out again).
  const missing = useMemo(() => [...highlight, ...(selectedId ? [selectedId] : [])].filter((id) => !baseIds.has(id) && leaves.some((l) => l.id === id)).join('\n'), [highlight, selectedId, baseIds, leaves]);
  const layout = useMemo(
    () => (missing ? layoutTreemap(leaves, { width: size.width, height: size.height, zoom, groupBy, keep: new Set(missing.split('\n')) }) : base),
    [missing, base, leaves, size.width, size.height, zoom, groupBy],
  );
  const byId = useMemo(() => new Map(layout.tiles.map((t) => [t.id, t])), [layout]);
  const deadElements = useMemo(() => layout.tiles.reduce((n, t) => n + (isDead(t) ? 1 : 0), 0) <= DEAD_ELEMENTS, [layout]);
  const onCanvas = useCallback((t: Tile) => (t.x1 - t.x0) * (t.y1 - t.y0) < ELEMENT_MIN_AREA && !(deadElements && isDead(t)), [deadElements]);
  const asElement = useCallback((t: Tile) => !onCanvas(t) || t.id === selectedId || t.id === focusId || highlighted.has(t.id), [onCanvas, selectedId, focusId, highlighted]);

  // The canvas holds the small tiles; it is repainted when they change, never on hover.
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || size.width === 0) return;
    paintTiles(canvas, layout.tiles, size.width, size.height, onCanvas);
  }, [layout, size.width, size.height, onCanvas]);

  const activate = (t: Tile) => {
    if (t.kind === 'segment') void selectSegment(t.id);
    else if (t.kind === 'merged') drill(t);
  };
  const drill = (t: Tile) => {
    if (zoom.length === 0) setZoom([t.g1]);
    else if (zoom.length === 1) setZoom([t.g1, t.g2]);
  };

  const current = (focusId && byId.get(focusId)) || (selectedId && byId.get(selectedId)) || layout.tiles[0] || null;
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
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

  const at = (e: MouseEvent): Tile | null => {
    const box = boxRef.current?.getBoundingClientRect();
    return box ? tileAt(layout.tiles, e.clientX - box.left, e.clientY - box.top) : null;
  };

  const focusedIndex = current && focusId ? layout.tiles.indexOf(current) : -1;
  return (
    <div className="treemap-wrap">
      <div
        ref={boxRef}
        className="treemap"
        data-testid="treemap"
        onMouseMove={(e) => {
          const t = at(e);
          const box = boxRef.current?.getBoundingClientRect();
          setHover(t && box ? { tile: t, x: e.clientX - box.left, y: e.clientY - box.top } : null);
        }}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => {
          const t = at(e);
          if (t) {
            setFocusId(t.id);
            activate(t);
          }
        }}
        onDoubleClick={(e) => {
          const t = at(e);
          if (t) drill(t);
        }}
      >
        <GroupLayer groups={layout.groups} onDrill={(key) => setZoom([key])} />
        <canvas ref={canvasRef} className="tm-canvas" aria-hidden="true" />
        <div
          className="tm-tiles"
          role="listbox"
          tabIndex={0}
          aria-label={`Treemap of ${deadOnly ? 'the dead segments, sized by what removing each frees' : 'the resident context'}, ${layout.tiles.length} blocks. Arrow keys move between neighbouring blocks, Enter selects, Escape goes up a level.`}
          aria-activedescendant={focusedIndex >= 0 ? optionId(focusedIndex) : undefined}
          onKeyDown={onKey}
          onFocus={() => {
            if (!focusId && current) setFocusId(current.id);
          }}
        >
          <TileLayer tiles={layout.tiles} asElement={asElement} selectedId={selectedId} focusedId={focusId} highlighted={highlighted} />
        </div>
        {hover ? <HoverRing tile={hover.tile} /> : null}
        {hover ? <Tooltip hover={hover} width={size.width} height={size.height} /> : null}
        {layout.tiles.length === 0 && size.width > 0 ? <div className="tm-empty" data-testid="treemap-empty">{deadOnly ? 'Nothing in this window is provably dead: a fork would remove nothing.' : 'Nothing resident to show.'}</div> : null}
      </div>
    </div>
  );
}

/** The element tiles (and the option every tile is to a screen reader when it has the focus). */
const TileLayer = memo(function TileLayer({
  tiles,
  asElement,
  selectedId,
  focusedId,
  highlighted,
}: {
  tiles: readonly Tile[];
  asElement: (t: Tile) => boolean;
  selectedId: string | null;
  focusedId: string | null;
  highlighted: ReadonlySet<string>;
}) {
  return (
    <>
      {tiles.map((t, i) => {
        if (!asElement(t)) return null;
        const w = t.x1 - t.x0;
        const h = t.y1 - t.y0;
        const fill = CLASS_COLOUR[t.cls];
        const label = t.pathLike ? splitPathLabel(t.label) : { name: visibleText(t.label), rest: '' };
        // A path's file name stays whole while it fits the tile (its padding aside); its folder gives way first (CSS).
        const shownName = t.pathLike ? fitName(label.name, w - TILE_PADDING, labelMeasure(600)) : label.name;
        return (
          <div
            key={t.id}
            id={optionId(i)}
            role="option"
            aria-selected={t.id === selectedId}
            data-tile={t.id}
            data-class={t.cls}
            data-kind={t.kind}
            className={`tm-tile${HATCHED.has(t.cls) ? ' hatched' : ''}${t.kind === 'merged' ? ' merged' : ''}${t.id === selectedId ? ' selected' : ''}${t.id === focusedId ? ' focused' : ''}${highlighted.has(t.id) ? ' highlighted' : ''}`}
            style={{ left: t.x0, top: t.y0, width: w, height: h, background: fill, color: textOn(fill) }}
          >
            {w > 40 && h > 16 ? (
              <span className={`tm-label${t.pathLike ? ' path' : ''}`}>
                <span className="tm-name">{shownName}</span>
                {label.rest ? <span className="tm-dir"> {label.rest}</span> : null}
              </span>
            ) : null}{' '}
            {w > 40 && h > 32 ? <span className="tm-size">{humanTokens(t.tokens)}</span> : null}
            {/* Read by screen readers as the option's name: what the tile does not show, and its place (names stay unique). */}
            <span className="sr-only">
              {w > 40 && h > 16 ? (shownName === label.name ? '' : ` ${label.name}`) : `${label.name}${label.rest ? ` ${label.rest}` : ''}`}, {humanTokens(t.tokens)} tokens, {CLASS_LABEL[t.cls]}
              {t.kind === 'merged' ? `, ${t.count} segments` : ''}, block {i + 1} of {tiles.length}
            </span>
          </div>
        );
      })}
    </>
  );
});

const GroupLayer = memo(function GroupLayer({ groups, onDrill }: { groups: readonly GroupTile[]; onDrill: (key: string) => void }) {
  return (
    <div className="tm-groups">
      {groups.map((g) => (
        <div key={`g:${g.depth}:${g.key}`} className={`tm-group depth-${g.depth}`} style={{ left: g.x0, top: g.y0, width: g.x1 - g.x0, height: g.y1 - g.y0 }}>
          {g.header && g.x1 - g.x0 > 40 ? (
            <button
              type="button"
              className="tm-group-label"
              style={{ height: GROUP_HEADER - 2 }}
              title={`Drill into ${visibleText(g.label)}`}
              onClick={(e) => {
                e.stopPropagation();
                onDrill(g.key);
              }}
            >
              <GroupHeaderText label={visibleText(g.label)} count={humanTokens(g.tokens)} width={g.x1 - g.x0 - HEADER_PADDING} />
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
});

/** A tile's horizontal padding and a header's, in px (the CSS). */
const TILE_PADDING = 10;
const HEADER_PADDING = 12;

function GroupHeaderText({ label, count, width }: { label: string; count: string; width: number }) {
  const fitted = fitHeader(label, count, width, labelMeasure(600));
  return (
    <>
      <span>{fitted.label}</span>
      {fitted.count ? <span className="num">{fitted.count}</span> : null}
    </>
  );
}

function HoverRing({ tile }: { tile: Tile }) {
  return <div className="tm-hover" style={{ left: tile.x0, top: tile.y0, width: tile.x1 - tile.x0, height: tile.y1 - tile.y0 }} />;
}

/** Beside the pointer, flipped and clamped so that it stays inside the treemap on every edge. */
function Tooltip({ hover, width, height }: { hover: Hover; width: number; height: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const left = hover.x + 14 + w <= width ? hover.x + 14 : Math.max(0, hover.x - 14 - w);
    const top = hover.y + 16 + h <= height ? hover.y + 16 : Math.max(0, hover.y - 10 - h);
    el.style.left = `${Math.max(0, Math.min(left, width - w))}px`;
    el.style.top = `${Math.max(0, Math.min(top, height - h))}px`;
    el.style.visibility = 'visible';
  });
  const t = hover.tile;
  const label = t.pathLike ? splitPathLabel(t.label) : { name: visibleText(t.label), rest: '' };
  return (
    <div ref={ref} className="tm-tooltip" style={{ left: 0, top: 0, visibility: 'hidden' }} role="tooltip" data-testid="tooltip">
      <div className="tt-source">{label.name}</div>
      {label.rest ? <div className="tt-line dim tt-dir">{label.rest}</div> : null}
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
