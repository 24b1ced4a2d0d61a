import { useEffect, useMemo } from 'react';
import { visibleText, type DeadClass, DEFAULT_FORK_CLASSES } from '@glassbox/core';
import type { SnapshotView } from '@glassbox/contract';
import { CLASS_COLOUR, CLASS_LABEL, textOn } from '../palette';
import { humanTokens, tokenCount } from '../format';
import { deadRows, stepDead } from '../dead-list';
import { useApp } from '../store';

/**
 * "What to remove", beside the treemap: the dead segments the default fork removes, ranked by what
 * each frees, file name first with its proof in one line; a row selects its tile. `n` / `N` step
 * through them from anywhere in the window.
 */
export function RemovePanel({ view }: { view: SnapshotView }) {
  const withInferred = useApp((s) => s.withInferred);
  const selectedId = useApp((s) => s.selectedSegmentId);
  const selectSegment = useApp((s) => s.selectSegment);
  const classes = useMemo<readonly DeadClass[]>(() => (withInferred ? [...DEFAULT_FORK_CLASSES, 'spent'] : DEFAULT_FORK_CLASSES), [withInferred]);
  const rows = useMemo(() => deadRows(view.snapshot, classes), [view.snapshot, classes]);
  const total = rows.reduce((n, r) => n + r.tokens, 0);
  const wide = useWide();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.key !== 'n' && e.key !== 'N') return;
      if (e.metaKey || e.ctrlKey || e.altKey || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('[role=dialog]')) return;
      const next = stepDead(rows, useApp.getState().selectedSegmentId, e.key === 'N');
      if (!next) return;
      e.preventDefault();
      void selectSegment(next.id);
      // Only the list scrolls to the row: the page itself stays where it is.
      const el = document.querySelector<HTMLElement>(`[data-dead-row="${CSS.escape(next.id)}"]`);
      const list = el?.closest<HTMLElement>('.remove-list');
      if (el && list) {
        const top = el.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top + el.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rows, selectSegment]);

  return (
    <aside className="remove-panel" aria-labelledby="remove-title" data-testid="remove-panel">
      {/* Open on a wide window; one line on a narrow one (it opens on a click). */}
      <details open={wide}>
        <summary id="remove-title" className="remove-title">
          What to remove <span className="dim">{rows.length === 0 ? '· nothing' : `${rows.length} · frees ${humanTokens(total)}`}</span>
        </summary>
        {rows.length === 0 ? (
          <p className="dim small">Nothing here is provably dead: a fork would remove nothing. That is a normal result.</p>
        ) : (
          <>
            <p className="dim small">
              Largest first. <kbd>n</kbd> / <kbd>N</kbd> step through them.
            </p>
            <ol className="remove-list">
              {rows.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    className={`remove-row${r.id === selectedId ? ' selected' : ''}`}
                    aria-current={r.id === selectedId ? 'true' : undefined}
                    onClick={() => void selectSegment(r.id)}
                    data-dead-row={r.id}
                    data-testid="remove-row"
                  >
                    <span className="remove-head">
                      <span className="badge small" style={{ background: CLASS_COLOUR[r.cls], color: textOn(CLASS_COLOUR[r.cls]) }}>
                        {CLASS_LABEL[r.cls]}
                      </span>
                      <span className="remove-name">{visibleText(r.name)}</span>
                      <span className="remove-tokens">{tokenCount(r.tokens)}</span>
                    </span>
                    {r.folder ? <span className="remove-folder dim small">{visibleText(r.folder)}</span> : null}
                    <span className="remove-proof small">{visibleText(r.proof)}</span>
                  </button>
                </li>
              ))}
            </ol>
          </>
        )}
      </details>
    </aside>
  );
}

/** Whether the window is wide enough for the panel to stand open (beside or under the map); read once, when a session opens. */
function useWide(): boolean {
  return useMemo(() => typeof window === 'undefined' || window.matchMedia('(min-width: 1281px)').matches, []);
}
