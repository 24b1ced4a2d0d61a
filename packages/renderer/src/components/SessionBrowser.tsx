import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { visibleText } from '@glassbox/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SessionSort } from '@glassbox/contract';
import { groupRows, listItems } from '../session-groups';
import { useApp } from '../store';
import { EmptySessions, NoMatch } from './session-browser/EmptyList';
import { IndexStatus } from './session-browser/IndexStatus';
import { domId, itemId, sizeOf } from './session-browser/list-layout';
import { SessionRowView } from './session-browser/SessionRowView';
import { useListCursor } from './session-browser/use-list-cursor';

const SORTS: { value: SessionSort; label: string }[] = [
  { value: 'activity', label: 'Last activity' },
  { value: 'size', label: 'File size' },
  { value: 'context', label: 'Context tokens' },
  { value: 'reclaimable', label: 'Reclaimable %' },
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
  // Stable, so rows that did not change are not drawn again while the list scrolls.
  const openRow = useCallback(
    (path: string) => {
      setCursor(`row-${path}`);
      void openSession(path);
    },
    [openSession, setCursor],
  );

  const activeItem = items[active];
  return (
    <nav className="browser" aria-label="Sessions" inert={inert}>
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
      {listLoaded && sessions.length === 0 ? query ? <NoMatch query={query} total={listTotal} /> : <EmptySessions /> : null}
      <div
        className="session-list"
        hidden={listLoaded && sessions.length === 0}
        ref={listRef}
        tabIndex={0}
        onKeyDown={onListKey}
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
            const style = { transform: `translateY(${vi.start}px)`, height: vi.size };
            if (item.kind === 'row') {
              return (
                <SessionRowView
                  key={vi.key}
                  id={domId(item)}
                  row={item.row}
                  level={groups ? 2 : 1}
                  top={vi.start}
                  height={vi.size}
                  selected={item.row.path === selectedPath}
                  cursor={isCursor}
                  flash={(flashed[item.row.path] ?? 0) > Date.now() - 2500}
                  onOpen={openRow}
                />
              );
            }
            return item.kind === 'group' ? (
              <div
                key={vi.key}
                id={domId(item)}
                role="treeitem"
                aria-level={1}
                aria-expanded={!item.collapsed}
                className={`project-head${isCursor ? ' cursor' : ''}`}
                style={style}
                title={item.group.cwd === null ? undefined : visibleText(item.group.cwd)}
                data-testid="project-head"
                onClick={() => {
                  setCursor(itemId(item));
                  toggle(item.group.key);
                }}
              >
                <span className="caret" aria-hidden="true">
                  {item.collapsed ? '▸' : '▾'}
                </span>
                <span className="project-name">{visibleText(item.group.label)}</span>
                <span className="dim">{item.group.rows.length}</span>
              </div>
            ) : null;
          })}
        </div>
      </div>
      <IndexStatus done={progress.done} total={progress.total} phase={progress.phase} stage={progress.current} sessions={listTotal} shown={sessions.length} query={query} />
    </nav>
  );
}
