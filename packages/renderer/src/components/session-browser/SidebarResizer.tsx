import { useRef, type RefObject } from 'react';
import { SIDEBAR_MAX_PX, SIDEBAR_MIN_PX } from '@glassbox/contract';
import { useApp } from '../../store';

/** Arrow keys move the edge this far; with Shift, further. */
const STEP_PX = 16;

/**
 * The session list's right edge: dragged, or moved with the arrow keys, it sets the list's width, which
 * the host keeps for the next start (saved when the drag ends, not at each move).
 */
export function SidebarResizer({ listRef }: { listRef: RefObject<HTMLElement | null> }) {
  const width = useApp((s) => s.sidebarWidth);
  const setWidth = useApp((s) => s.setSidebarWidth);
  const drag = useRef<{ x: number; w: number } | null>(null);
  const now = () => width ?? listRef.current?.getBoundingClientRect().width ?? 280;
  return (
    <div
      className="side-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label="Session list width"
      aria-valuemin={SIDEBAR_MIN_PX}
      aria-valuemax={SIDEBAR_MAX_PX}
      aria-valuenow={Math.round(now())}
      tabIndex={0}
      title="Drag to widen or narrow the list (or ← →)"
      data-testid="sidebar-resize"
      onPointerDown={(e) => {
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { x: e.clientX, w: now() };
      }}
      onPointerMove={(e) => {
        if (drag.current) setWidth(drag.current.w + e.clientX - drag.current.x, false);
      }}
      onPointerUp={(e) => {
        if (!drag.current) return;
        setWidth(drag.current.w + e.clientX - drag.current.x, true);
        drag.current = null;
      }}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        e.preventDefault();
        const step = (e.shiftKey ? 4 : 1) * STEP_PX;
        setWidth(now() + (e.key === 'ArrowRight' ? step : -step), true);
      }}
    />
  );
}
