import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ListItem } from '../../session-groups';
import { itemId } from './list-layout';

interface CursorInput {
  items: ListItem[];
  /** The open session: the cursor starts from its row. */
  selectedPath: string | null;
  /** Brings a line into view (the list is virtualised: it may not be in the page yet). */
  scrollTo: (index: number) => void;
  /** Closes or opens a project's group. */
  toggle: (key: string) => void;
  open: (path: string) => void;
}

/**
 * The list's keyboard cursor, as in a tree: up and down move, Home and End jump, right and left open
 * and close a project (left from a row goes to its project), Enter or space opens. The active line
 * is the cursor's, else the open session's row.
 *
 * The cursor is a line's id, not an index: when the list refreshes under it (the index refines rows as
 * it reads them; a live session moves up) it stays on the same session. While its line is not in the
 * list for a moment (a row re-read, a project regrouped) the cursor waits at the index it last had,
 * and comes back to its session when that returns, instead of falling back to the top.
 */
export function useListCursor({ items, selectedPath, scrollTo, toggle, open }: CursorInput) {
  const [cursor, setCursor] = useState<string | null>(null);
  const indexOf = useMemo(() => new Map(items.map((item, i) => [itemId(item), i])), [items]);
  const cursorIndex = cursor ? (indexOf.get(cursor) ?? -1) : -1;
  const selectedIndex = selectedPath ? (indexOf.get(`row-${selectedPath}`) ?? -1) : -1;
  const last = useRef(-1);
  const held = cursor !== null && cursorIndex < 0 && last.current >= 0 ? Math.min(last.current, items.length - 1) : -1;
  const active = cursorIndex >= 0 ? cursorIndex : held >= 0 ? held : selectedIndex;
  if (cursorIndex >= 0) last.current = cursorIndex;
  const moveTo = (i: number) => {
    const item = items[Math.max(0, Math.min(items.length - 1, i))];
    if (!item) return;
    setCursor(itemId(item));
    scrollTo(items.indexOf(item));
  };

  const onListKey = (e: KeyboardEvent) => {
    if (items.length === 0) return;
    const here = items[active];
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        moveTo(active < 0 ? 0 : active + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        moveTo(active < 0 ? 0 : active - 1);
        break;
      case 'Home':
        e.preventDefault();
        moveTo(0);
        break;
      case 'End':
        e.preventDefault();
        moveTo(items.length - 1);
        break;
      case 'ArrowRight':
        if (here?.kind === 'group' && here.collapsed) {
          e.preventDefault();
          toggle(here.group.key);
        }
        break;
      case 'ArrowLeft':
        if (here?.kind === 'group' && !here.collapsed) {
          e.preventDefault();
          toggle(here.group.key);
        } else if (here?.kind === 'row' && here.group) {
          e.preventDefault();
          const key = here.group.key;
          moveTo(items.findIndex((i) => i.kind === 'group' && i.group.key === key));
        }
        break;
      case 'Enter':
      case ' ':
        if (!here) break;
        e.preventDefault();
        if (here.kind === 'group') toggle(here.group.key);
        else open(here.row.path);
        break;
    }
  };

  return { active, setCursor, moveTo, onListKey };
}
