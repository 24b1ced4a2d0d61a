import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { visibleText } from '@glassbox/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SessionSort } from '@glassbox/contract';
import { groupRows, listItems } from '../session-groups';
import { useApp } from '../store';
import { NoMatch, NoSessions } from './session-browser/EmptyList';
import { IndexStatus } from './session-browser/IndexStatus';
import { JobsBar } from './JobsBar';
import { ExpiringBanner } from './session-browser/ExpiringBanner';
import { SidebarResizer } from './session-browser/SidebarResizer';
import { RetentionText } from './retention/RetentionMark';
import { projectRetentionLabel } from '../retention-labels';
import { domId, itemId, sizeOf } from './session-browser/list-layout';
import { SessionRowView } from './session-browser/SessionRowView';
import { useListCursor } from './session-browser/use-list-cursor';

const SORTS: { value: SessionSort; label: string }[] = [
  { value: 'activity', label: 'Last activity' },
  { value: 'size', label: 'File size' },
  { value: 'context', label: 'Context tokens' },
  { value: 'reclaimable', label: 'Reclaimable %' },
  { value: 'cost', label: 'Cost' },
];

/** Sessions grouped by project (or one list), virtualised: only the lines in view are in the page. */
export function SessionBrowser({ inert }: { inert?: boolean }) {
  const sessions = useApp((s) => s.sessions);
  const query = useApp((s) => s.query);
  const sort = useApp((s) => s.sort);
  const setQuery = useApp((s) => s.setQuery);
  const setSort = useApp((s) => s.setSort);
  const byProject = useApp((s) => s.groupByProject);
  const setByProject = useApp((s) => s.setGroupByProject);
  const progress = useApp((s) => s.progress);
  const selectedPath = useApp((s) => s.selectedPath);
  const openSession = useApp((s) => s.openSession);
  const listLoaded = useApp((s) => s.listLoaded);
  const listTotal = useApp((s) => s.listTotal);
  const flashed = useApp((s) => s.flashed);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const navRef = useRef<HTMLElement>(null);

  const groups = useMemo(() => (byProject ? groupRows(sessions) : null), [sessions, byProject]);
  const items = useMemo(() => listItems(sessions, groups, collapsed), [sessions, groups, collapsed]);
  const v = useVirtualizer({
    count: items.length,
    getScrollElement: () => listRef.current,
    estimateSize: (i) => sizeOf(items[i]),
    getItemKey: (i) => (items[i] ? itemId(items[i]) : i),
    overscan: 8,
  });

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.key === '/' && !['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) && !target.closest('[role=dialog]')) {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const toggle = (key: string) => setCollapsed((c) => ({ ...c, [key]: !c[key] }));
  const { active, setCursor, moveTo, onListKey } = useListCursor({
    items,
    selectedPath,
    scrollTo: (i) => v.scrollToIndex(i, { align: 'auto' }),
    toggle,
    open: (path) => void openSession(path),
  });
  // A click opens the line the press was on: the list may re-order (the index refining rows, a live
  // session moving up) between press and release, and then the release lands on another line, or the
  // click on the list itself. Keyed by the line's id, not its place.
  const pressed = useRef<string | null>(null);
  const lineAt = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>('[data-line]')?.dataset['line'] : undefined) ?? null;
  const onListClick = (e: MouseEvent) => {
    const id = pressed.current ?? lineAt(e.target);
    pressed.current = null;
    if (!id) return;
    setCursor(id);
    if (id.startsWith('row-')) void openSession(id.slice('row-'.length));
    else if (id.startsWith('grp-')) toggle(id.slice('grp-'.length));
  };

  // The open session's row is brought into view once per session opened, its project opened if it was
  // closed, and the cursor put on it: a fork the wizard just wrote is found and selected this way, as
  // soon as its row is in the list.
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    if (!selectedPath || revealed.current === selectedPath) return;
    const id = `row-${selectedPath}`;
    const at = items.findIndex((i) => i.id === id);
    if (at < 0) {
      const shut = groups?.find((g) => collapsed[g.key] && g.rows.some((r) => r.path === selectedPath));
      if (shut) setCollapsed((c) => ({ ...c, [shut.key]: false }));
      return;
    }
    revealed.current = selectedPath;
    setCursor(id);
    v.scrollToIndex(at, { align: 'auto' });
  }, [selectedPath, items, groups, collapsed, setCursor, v]);

  const activeItem = items[active];
  return (
    <nav className="browser" aria-label="Sessions" inert={inert} ref={navRef}>
      <SidebarResizer listRef={navRef} />
      <div className="browser-head">
        <h2>Sessions</h2>
        <span className="count">{listTotal || ''}</span>
      </div>
      <input
        ref={searchRef}
        className="search"
        type="search"
        placeholder="Search sessions  ( / )"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            listRef.current?.focus();
            moveTo(items.findIndex((i) => i.kind === 'row'));
          } else if (e.key === 'Escape') setQuery('');
        }}
        aria-label="Search sessions"
        data-testid="search"
      />
      <div className="sort">
        <label>
          <span>Sort</span>
          <select value={sort} onChange={(e) => setSort(e.target.value as SessionSort)} aria-label="Sort sessions">
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="check" title="Off: one list, sorted as a whole">
          <input type="checkbox" checked={byProject} onChange={(e) => setByProject(e.target.checked)} data-testid="by-project" /> by project
        </label>
      </div>
      <ExpiringBanner rows={sessions} />
      {listLoaded && sessions.length === 0 ? query ? <NoMatch query={query} total={listTotal} /> : <NoSessions /> : null}
      <div
        className="session-list"
        hidden={listLoaded && sessions.length === 0}
        ref={listRef}
        tabIndex={0}
        onKeyDown={onListKey}
        onPointerDown={(e) => (pressed.current = lineAt(e.target))}
        onClick={onListClick}
        onFocus={() => {
          if (active < 0 && items.length > 0) moveTo(items.findIndex((i) => i.kind === 'row'));
        }}
        role="tree"
        aria-label={`Sessions${query ? ` matching “${query}”` : ''}: ${sessions.length}. Up and down move, Enter opens, left and right close and open a project.`}
        aria-activedescendant={activeItem ? domId(activeItem) : undefined}
        data-testid="session-list"
      >
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((vi) => {
            const item = items[vi.index];
            if (!item) return null;
            const isCursor = vi.index === active;
            if (item.kind === 'row') {
              return (
                <SessionRowView
                  key={vi.key}
                  id={domId(item)}
                  line={item.id}
                  index={vi.index}
                  row={item.row}
                  level={item.group ? 2 : 1}
                  project={item.project}
                  top={vi.start}
                  selected={item.row.path === selectedPath}
                  cursor={isCursor}
                  flash={(flashed[item.row.path] ?? 0) > Date.now() - 2500}
                  measure={v.measureElement}
                />
              );
            }
            const note = item.kind === 'group' ? projectRetentionLabel(item.group.rows) : null;
            return item.kind === 'group' ? (
              <div
                key={vi.key}
                id={domId(item)}
                role="treeitem"
                aria-level={1}
                aria-expanded={!item.collapsed}
                ref={v.measureElement}
                data-index={vi.index}
                className={`project-head${isCursor ? ' cursor' : ''}`}
                style={{ transform: `translateY(${vi.start}px)` }}
                title={item.group.cwd === null ? undefined : visibleText(item.group.cwd)}
                data-testid="project-head"
                data-line={item.id}
              >
                <span className="caret" aria-hidden="true">
                  {item.collapsed ? '▸' : '▾'}
                </span>
                <span className="project-name">{visibleText(item.group.label)}</span>
                <span className="dim">{item.group.rows.length}</span>
                {note ? (
                  <span className="project-note">
                    <RetentionText label={note} />
                  </span>
                ) : null}
              </div>
            ) : null;
          })}
        </div>
      </div>
      <JobsBar />
      <IndexStatus done={progress.done} total={progress.total} phase={progress.phase} stage={progress.current} sessions={listTotal} shown={sessions.length} query={query} />
    </nav>
  );
}
