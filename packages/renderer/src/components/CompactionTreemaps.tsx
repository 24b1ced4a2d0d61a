import type { AfterSegment, CompactionItem, CompactionReport } from '@glassbox/core';
import { CLASS_COLOUR } from '../palette';
import { humanTokens } from '../format';
import { squarify } from '../compaction-layout';
import { CARRIED_LABEL, itemLabel, relative } from '../compaction-labels';

const W = 340;
const H = 200;

/**
 * The window before the compaction (area = tokens, colour = how each segment crossed it) beside the
 * window the first request after it carried (colour = class, the summary apart).
 */
export function CompactionTreemaps({ report, cwd, selected, onSelect }: { report: CompactionReport; cwd: string | null; selected: string | null; onSelect(item: CompactionItem): void }) {
  const preserved = new Set(report.xray.kept.filter((i) => i.carried === 'preserved').map((i) => i.uuid));
  const attached = new Set(report.xray.reattached.map((r) => r.uuid));
  const fillOf = (s: AfterSegment): string =>
    s.kind === 'compact-summary' ? 'var(--cx-summary)' : preserved.has(s.uuid) ? 'var(--cx-preserved)' : attached.has(s.uuid) ? 'var(--cx-reattached)' : CLASS_COLOUR[s.class];
  const before = [...report.xray.kept, ...report.xray.dropped];
  const beforeCells = squarify(before, (i) => i.tokens, W, H);
  const afterCells = squarify(report.after, (s) => s.tokens, W, H);
  const beforeTotal = report.figures.windowTokens;
  const afterTotal = report.after.reduce((n, s) => n + s.tokens, 0);
  return (
    <div className="cx-treemaps">
      <figure>
        <figcaption title="The messages of the window before it that are in the transcript, sized by Glassbox's estimate: the size above also counts the system prompt and tools, which no transcript holds.">
          The messages before it ({humanTokens(beforeTotal)} of them in the transcript)
        </figcaption>
        <svg width={W} height={H} role="img" aria-label={`The window before compaction ${report.xray.index}: ${before.length} segments, ${humanTokens(report.figures.droppedTokens)} tokens dropped`} data-testid="cx-before">
          {beforeCells.map((c) => (
            <rect
              key={c.item.segmentId}
              x={c.x}
              y={c.y}
              width={Math.max(0, c.w - 1)}
              height={Math.max(0, c.h - 1)}
              className={`cx-cell carried-${c.item.carried}${c.item.dead ? ' dead' : ''}${selected === c.item.segmentId ? ' selected' : ''}`}
              onClick={() => onSelect(c.item)}
            >
              <title>{`${c.item.kind} ${itemLabel(c.item, cwd)} · ${humanTokens(c.item.tokens)} tokens · ${CARRIED_LABEL[c.item.carried]}${c.item.dead ? ` · dead anyway (${c.item.class})` : ''}`}</title>
            </rect>
          ))}
        </svg>
      </figure>
      <figure>
        <figcaption>
          After: {humanTokens(afterTotal)} tokens in the transcript
          {report.postTokens !== null ? `, ${humanTokens(report.postTokens)} reported for the next request` : ''}
        </figcaption>
        <svg width={W} height={H} role="img" aria-label={`The window after compaction ${report.xray.index}: ${report.after.length} segments`} data-testid="cx-after">
          {afterCells.map((c) => (
            <rect key={c.item.segmentId} x={c.x} y={c.y} width={Math.max(0, c.w - 1)} height={Math.max(0, c.h - 1)} className="cx-cell" fill={fillOf(c.item)}>
              <title>{`${c.item.kind} ${relative(c.item.label, cwd)} · ${humanTokens(c.item.tokens)} tokens`}</title>
            </rect>
          ))}
        </svg>
      </figure>
      <ul className="cx-legend" aria-label="Colours of the before treemap">
        {(['preserved', 'reattached', 'summary', 'partial', 'none'] as const).map((k) => (
          <li key={k}>
            <span className={`swatch carried-${k}`} aria-hidden="true" /> {CARRIED_LABEL[k]}
          </li>
        ))}
        <li>
          <span className="swatch dead" aria-hidden="true" /> dead anyway (outlined)
        </li>
        <li>
          <span className="swatch summary" aria-hidden="true" /> after: the summary; other new text by class
        </li>
      </ul>
    </div>
  );
}
