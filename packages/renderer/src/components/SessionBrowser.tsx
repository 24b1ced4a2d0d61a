import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SessionRow, SessionSort } from '@glassbox/contract';
import { formatUsd } from '@glassbox/core';
import { ago, humanBytes, humanTokens, pct } from '../format';
import { sessionTitle } from '../labels';
import { groupRows, listItems, type ListItem } from '../session-groups';
import { useApp } from '../store';
import { RetentionMark } from './retention/RetentionMark';

const SORTS: { value: SessionSort; label: string }[] = [
  { value: 'activity', label: 'Last activity' },
  { value: 'size', label: 'File size' },
  { value: 'context', label: 'Context tokens' },
  { value: 'reclaimable', label: 'Reclaimable %' },
];

const HEADER_PX = 30;
const ROW_PX = 50;
const EXTRA_LINE_PX = 17;

const itemId = (i: ListItem) => (i.kind === 'group' ? `grp-${i.group.key}` : `row-${i.row.path}`);
const domId = (i: ListItem) => `sl-${hash(itemId(i))}`;

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
  const [cursor, setCursor] = useState<string | null>(null);
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

  const indexOf = useMemo(() => new Map(items.map((item, i) => [itemId(item), i])), [items]);
  const cursorIndex = cursor ? (indexOf.get(cursor) ?? -1) : -1;
  const selectedIndex = selectedPath ? (indexOf.get(`row-${selectedPath}`) ?? -1) : -1;
  const active = cursorIndex >= 0 ? cursorIndex : selectedIndex;
  const moveTo = (i: number) => {
    const item = items[Math.max(0, Math.min(items.length - 1, i))];
    if (!item) return;
    setCursor(itemId(item));
    v.scrollToIndex(items.indexOf(item), { align: 'auto' });
  };
  const toggle = (key: string) => setCollapsed((c) => ({ ...c, [key]: !c[key] }));
  // Stable, so rows that did not change are not drawn again while the list scrolls.
  const openRow = useCallback(
    (path: string) => {
      setCursor(`row-${path}`);
      void openSession(path);
    },
    [openSession],
  );

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
        else void openSession(here.row.path);
        break;
    }
  };

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
                title={item.group.cwd}
                data-testid="project-head"
                onClick={() => {
                  setCursor(itemId(item));
                  toggle(item.group.key);
                }}
              >
                <span className="caret" aria-hidden="true">
                  {item.collapsed ? '▸' : '▾'}
                </span>
                <span className="project-name">{item.group.label}</span>
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

function sizeOf(item: ListItem | undefined): number {
  if (!item) return ROW_PX;
  if (item.kind === 'group') return HEADER_PX;
  const r = item.row;
  return ROW_PX + (r.forkOf ? EXTRA_LINE_PX : 0) + (r.retention || r.kept ? EXTRA_LINE_PX : 0) + (r.matched ? EXTRA_LINE_PX : 0) + (r.warning && !r.problem ? EXTRA_LINE_PX : 0);
}

const SessionRowView = memo(function SessionRowView({
  id,
  row,
  level,
  top,
  height,
  selected,
  cursor,
  flash,
  onOpen,
}: {
  id: string;
  row: SessionRow;
  level: number;
  top: number;
  height: number;
  selected: boolean;
  cursor: boolean;
  flash: boolean;
  onOpen: (path: string) => void;
}) {
  const ctx = row.contextTokens ?? row.estimatedTokens;
  const title = sessionTitle(row.title, { project: row.project, lastActivity: row.lastActivity });
  const untitled = title !== (row.title ?? '').split('\n')[0]?.trim();
  return (
    <div
      id={id}
      className={`session-row${level === 1 ? ' flat' : ''}${selected ? ' selected' : ''}${cursor ? ' cursor' : ''}${flash ? ' flash' : ''}`}
      role="treeitem"
      aria-level={level}
      aria-selected={selected}
      style={{ transform: `translateY(${top}px)`, height }}
      data-path={row.path}
      data-session-id={row.id}
      data-bytes={row.bytes}
      data-testid="session-row"
      onClick={() => onOpen(row.path)}
      title={`${row.path}\n${humanBytes(row.bytes)}`}
    >
      <div className="row-title">
        {row.live ? <span className="live-dot" title="written to in the last few minutes" /> : null}
        <span className={`title-text${untitled ? ' untitled' : ''}`}>{title}</span>
        {row.fork ? <span className="tag fork">fork</span> : null}
        {row.forks.length > 0 ? (
          <span className="tag" title={row.forks.map((f) => f.sessionId).join('\n')} data-testid="row-forks">
            {row.forks.length} fork{row.forks.length === 1 ? '' : 's'}
          </span>
        ) : null}
      </div>
      {row.forkOf ? (
        <div className="row-meta" data-testid="row-fork-of">
          <span className="dim">{row.forkOf.kind === 'undo' ? 'restored from fork' : 'fork of'}</span>
          <span className="row-link" title={row.forkOf.path}>
            {row.forkOf.title ?? row.forkOf.sessionId.slice(0, 8)}
          </span>
        </div>
      ) : null}
      {row.retention || row.kept ? (
        <div className="row-meta">
          <RetentionMark retention={row.retention} kept={row.kept} />
        </div>
      ) : null}
      <div className="row-meta">
        <span>{ago(row.lastActivity)}</span>
        <span title={row.contextTokens === null ? 'estimated' : 'provider-reported'}>{humanTokens(ctx)} ctx</span>
        {row.problem ? (
          <span className="warn" title={row.problem}>
            ⚠ unreadable
          </span>
        ) : (
          <span className={row.reclaimableShare > 0.05 ? 'reclaim' : ''} title={`${humanTokens(row.reclaimableTokens)} tokens provably dead`}>
            {pct(row.reclaimableShare)} dead
          </span>
        )}
        {row.costUsd != null ? (
          <span title="at list prices, with its subagents" data-testid="row-cost">
            {formatUsd(row.costUsd)}
          </span>
        ) : null}
        <span data-testid="row-size">{humanBytes(row.bytes)}</span>
      </div>
      {row.warning && !row.problem ? (
        <div className="row-meta warn" title={row.warning} data-testid="row-warning">
          ⚠ {row.warning}
        </div>
      ) : null}
      {row.matched ? (
        <div className="row-meta matched" data-testid="row-matched">
          matched in {row.matched}
        </div>
      ) : null}
    </div>
  );
});

function IndexStatus({ done, total, phase, stage, sessions, shown, query }: { done: number; total: number; phase: string; stage: string | undefined; sessions: number; shown: number; query: string }) {
  if (phase === 'idle') return <div className="index-status">Starting…</div>;
  if (phase === 'scanning') return <div className="index-status">Looking for sessions…</div>;
  if (phase === 'indexing') {
    return (
      <div className="index-status" role="status">
        <span>
          {stage ?? 'Indexing'} {done}/{total}
        </span>
        <progress max={total || 1} value={done} aria-label="Indexing progress" />
      </div>
    );
  }
  return (
    <div className="index-status" role="status">
      {query ? `${shown === 0 ? 'No match' : `${shown} match${shown === 1 ? '' : 'es'}`} among ${sessions} sessions` : `${sessions} session${sessions === 1 ? '' : 's'} indexed · watching for changes`}
    </div>
  );
}

function NoMatch({ query, total }: { query: string; total: number }) {
  return (
    <div className="empty-state" data-testid="no-match">
      No session matches “{query}”{total ? ` among ${total}` : ''}. Search looks in titles, projects, folders, prompts, file paths and commands.
    </div>
  );
}

function EmptySessions() {
  const roots = useApp((s) => s.roots);
  const samples = useApp((s) => s.samples);
  const openSession = useApp((s) => s.openSession);
  return (
    <div className="empty-state" data-testid="empty-sessions">
      <p>
        <strong>No Claude Code sessions found.</strong>
      </p>
      <p className="dim">Looked in:</p>
      <ul className="roots">
        {roots.map((r) => (
          <li key={r}>
            <code>{r}</code>
          </li>
        ))}
      </ul>
      <p className="dim">
        Point Glassbox elsewhere with <code>CLAUDE_CONFIG_DIR</code>, or drop a <code>.jsonl</code> file anywhere on this window.
      </p>
      {samples.length > 0 ? (
        <>
          <p>Or explore a sample session:</p>
          <ul className="samples">
            {samples.map((s) => (
              <li key={s.path}>
                <button type="button" className="link" onClick={() => void openSession(s.path)} data-testid="sample">
                  {s.name}
                </button>
                <div className="dim small">{s.description}</div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** A short stable id for an element (paths are not valid ids). */
function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}
