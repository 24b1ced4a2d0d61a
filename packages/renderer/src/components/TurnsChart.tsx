import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { DEAD_CLASSES, zeroByDeadClass, type ClassifiedSnapshot, type DeadClass } from '@glassbox/core';
import { CLASS_COLOUR, CLASS_LABEL } from '../palette';
import type { TurnAdditionView } from '@glassbox/contract';
import { clock, exact, humanTokens } from '../format';
import { useApp } from '../store';
import { useCompactions } from '../compaction-store';
import { compactionCount, markerLabelsThatFit } from '../compaction-labels';

const DEAD: readonly DeadClass[] = DEAD_CLASSES;
const H = 120;
const PAD = { l: 44, r: 10, t: 10, b: 18 };

/**
 * Context size per API response (provider-reported), compactions marked, and under it the part that is
 * reclaimable now, stacked by class, as it accumulated: a dead segment counts from the response after it.
 */
export function TurnsChart({
  snapshot,
  additions,
  onCompaction,
}: {
  snapshot: ClassifiedSnapshot;
  additions: readonly TurnAdditionView[];
  /** Opens what the compaction before this response (by its line) forgot. */
  onCompaction?: (responseLine: number) => void;
}) {
  const setHighlight = useApp((s) => s.setHighlight);
  const selectSegment = useApp((s) => s.selectSegment);
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  const [hover, setHover] = useState<number | null>(null);
  // The session's own compactions, as the x-ray lists them: the chart gives the same count.
  const history = useCompactions((s) => s.view?.histories.find((h) => h.agentId === null) ?? null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);

  const data = useMemo(() => {
    const turns = snapshot.turns;
    const dead = snapshot.segments.filter((s): s is typeof s & { class: DeadClass } => (DEAD as readonly string[]).includes(s.class)).sort((a, b) => a.line - b.line);
    return turns.map((t) => {
      const stack = zeroByDeadClass(() => 0);
      for (const s of dead) if (s.line < t.line) stack[s.class] += s.tokens;
      return { t, stack };
    });
  }, [snapshot]);

  if (data.length === 0) {
    return (
      <div className="chart empty" ref={ref}>
        No provider-reported usage in this session: nothing to chart over time.
      </div>
    );
  }
  const max = Math.max(1, ...data.map((d) => d.t.contextTokens));
  const iw = Math.max(10, width - PAD.l - PAD.r);
  const ih = H - PAD.t - PAD.b;
  const x = (i: number) => PAD.l + (data.length === 1 ? iw / 2 : (i / (data.length - 1)) * iw);
  const y = (v: number) => PAD.t + ih - (v / max) * ih;
  // Markers closer together than a label's width show their line only, never labels drawn over each other.
  const markers = data.flatMap((d, i) => (d.t.afterCompaction ? [i] : []));
  const fits = markerLabelsThatFit(markers.map((i) => x(i)), 64);
  const labelled = new Set(markers.filter((_, k) => fits[k]));
  const line = data.map((d, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(d.t.contextTokens).toFixed(1)}`).join('');
  const area = `${line}L${x(data.length - 1).toFixed(1)},${y(0)}L${x(0).toFixed(1)},${y(0)}Z`;
  const bands: { cls: DeadClass; d: string }[] = [];
  const base = data.map(() => 0);
  for (const cls of DEAD) {
    if (!data.some((d) => d.stack[cls] > 0)) continue;
    const top = data.map((d, i) => (base[i] ?? 0) + d.stack[cls]);
    const upper = top.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join('');
    const lower = base.map((v, i) => `L${x(i).toFixed(1)},${y(v).toFixed(1)}`).reverse().join('');
    bands.push({ cls, d: `${upper}${lower}Z` });
    top.forEach((v, i) => (base[i] = v));
  }
  const h = hover === null ? null : data[hover];
  const added = hover === null ? null : (additions[hover] ?? null);
  /** Clicking a response selects what its request added, in the treemap. */
  const pick = (i: number) => {
    const a = additions[i];
    if (!a || a.largest.length === 0) return;
    setHighlight(a.largest.map((x) => x.segmentId));
    void selectSegment(a.largest[0]?.segmentId ?? null);
  };
  return (
    <div
      className="chart"
      ref={ref}
      data-testid="turns-chart"
      tabIndex={0}
      role="group"
      aria-label={`Context size over ${data.length} responses, up to ${humanTokens(max)} tokens. Left and right move between responses, Enter selects what a response added.`}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
          e.preventDefault();
          setHover((v) => Math.max(0, Math.min(data.length - 1, (v ?? (e.key === 'ArrowRight' ? -1 : data.length)) + (e.key === 'ArrowRight' ? 1 : -1))));
        } else if (e.key === 'Enter' && hover !== null) {
          e.preventDefault();
          pick(hover);
        }
      }}
      onBlur={() => setHover(null)}
    >
      <svg
        width={width}
        height={H}
        role="presentation"
        onClick={() => {
          if (hover !== null) pick(hover);
        }}
        onMouseMove={(e) => {
          const box = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
          const rel = (e.clientX - box.left - PAD.l) / iw;
          setHover(Math.max(0, Math.min(data.length - 1, Math.round(rel * (data.length - 1)))));
        }}
        onMouseLeave={() => setHover(null)}
      >
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line className="grid" x1={PAD.l} x2={PAD.l + iw} y1={y(max * f)} y2={y(max * f)} />
            <text className="axis" x={PAD.l - 6} y={y(max * f) + 4} textAnchor="end">
              {humanTokens(max * f)}
            </text>
          </g>
        ))}
        <path className="ctx-area" d={area} />
        {bands.map((b) => (
          <path key={b.cls} d={b.d} fill={CLASS_COLOUR[b.cls]} opacity={0.9}>
            <title>{CLASS_LABEL[b.cls]}</title>
          </path>
        ))}
        <path className="ctx-line" d={line} />
        {data.map((d, i) =>
          d.t.afterCompaction ? (
            <g
              key={`c${i}`}
              className={`compaction${onCompaction ? ' clickable' : ''}`}
              {...(onCompaction
                ? {
                    role: 'button',
                    tabIndex: 0,
                    // Starts with the text it shows (axe: label-content-name-mismatch).
                    'aria-label': `compacted before response ${i + 1}: what it forgot`,
                    onClick: (e: MouseEvent<SVGGElement>) => {
                      e.stopPropagation();
                      onCompaction(d.t.line);
                    },
                    onKeyDown: (e: KeyboardEvent<SVGGElement>) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        // The chart's own Enter selects what a response added; this is the marker's.
                        e.stopPropagation();
                        onCompaction(d.t.line);
                      }
                    },
                  }
                : {})}
            >
              <line x1={x(i)} x2={x(i)} y1={PAD.t} y2={PAD.t + ih} />
              {labelled.has(i) ? (
                // Near the right edge the label goes left of its line, never cut off.
                <text x={x(i) + 64 > PAD.l + iw ? x(i) - 3 : x(i) + 3} y={PAD.t + 9} textAnchor={x(i) + 64 > PAD.l + iw ? 'end' : 'start'}>
                  compacted
                </text>
              ) : null}
            </g>
          ) : null,
        )}
        {h && hover !== null ? (
          <g>
            <line className="cursor" x1={x(hover)} x2={x(hover)} y1={PAD.t} y2={PAD.t + ih} />
            <circle className="cursor-dot" cx={x(hover)} cy={y(h.t.contextTokens)} r={3} />
          </g>
        ) : null}
        <text className="axis" x={PAD.l} y={H - 4}>
          response 1
        </text>
        <text className="axis" x={PAD.l + iw} y={H - 4} textAnchor="end">
          {data.length}
        </text>
      </svg>
      {h ? (
        <div className="chart-readout" aria-live="polite" data-testid="chart-readout">
          response {(hover ?? 0) + 1} · {clock(h.t.timestamp)} · {humanTokens(h.t.contextTokens)} tokens reported ({exact(h.t.contextTokens)})
          {h.t.afterCompaction ? ' · after a compaction' : ''}
          {added && added.largest.length > 0 ? (
            <span className="additions" data-testid="chart-additions">
              {' · added '}
              {added.largest.slice(0, 3).map((x, i) => (
                <span key={x.segmentId}>
                  {i > 0 ? ', ' : ''}
                  {x.label.length > 40 ? `${x.label.slice(0, 39)}…` : x.label} +{humanTokens(x.tokens)}
                </span>
              ))}
              {added.segments > 3 ? ` and ${added.segments - 3} more` : ''} — click to select
            </span>
          ) : null}
        </div>
      ) : (
        <div className="chart-readout dim">
          context over {data.length} responses (provider-reported)
          {history ? (history.boundaries > 0 ? ` · ${compactionCount(history)}` : '') : snapshot.context.compactions ? ` · ${snapshot.context.compactions} compaction${snapshot.context.compactions === 1 ? '' : 's'}` : ''}
        </div>
      )}
    </div>
  );
}
