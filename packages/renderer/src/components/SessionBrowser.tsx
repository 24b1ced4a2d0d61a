import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SessionRow, SessionSort } from '@glassbox/contract';
import { ago, humanBytes, humanTokens, pct } from '../format';
import { useApp } from '../store';
import { RetentionMark } from './retention/RetentionMark';

const SORTS: { value: SessionSort; label: string }[] = [
  { value: 'activity', label: 'Last activity' },
  { value: 'size', label: 'File size' },
  { value: 'context', label: 'Context tokens' },
  { value: 'reclaimable', label: 'Reclaimable %' },
];

interface Group {
  key: string;
  label: string;
  rows: SessionRow[];
}

/** Projects as their working directory's last folder names, made just long enough to tell apart. */
function groupRows(rows: SessionRow[]): Group[] {
  const byKey = new Map<string, SessionRow[]>();
  for (const r of rows) {
    const key = r.cwd ?? r.projectDir;
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  const keys = [...byKey.keys()];
  const label = (key: string): string => {
    const parts = key.split(/[\\/]/).filter(Boolean);
    for (let n = 1; n <= parts.length; n++) {
      const tail = parts.slice(-n).join('/');
      if (keys.filter((k) => k.split(/[\\/]/).filter(Boolean).slice(-n).join('/') === tail).length === 1) return tail;
    }
    return key;
  };
  return keys.map((key) => ({ key, label: label(key), rows: byKey.get(key) ?? [] }));
}

export function SessionBrowser() {
  const sessions = useApp((s) => s.sessions);
  const query = useApp((s) => s.query);
  const sort = useApp((s) => s.sort);
  const setQuery = useApp((s) => s.setQuery);
  const setSort = useApp((s) => s.setSort);
  const progress = useApp((s) => s.progress);
  const selectedPath = useApp((s) => s.selectedPath);
  const openSession = useApp((s) => s.openSession);
  const listLoaded = useApp((s) => s.listLoaded);
  const flashed = useApp((s) => s.flashed);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  const [cursor, setCursor] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const groups = useMemo(() => groupRows(sessions), [sessions]);
  const visible = useMemo(() => groups.flatMap((g) => (collapsed[g.key] ? [] : g.rows)), [groups, collapsed]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.key === '/' && !['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const onListKey = (e: KeyboardEvent) => {
    if (visible.length === 0) return;
    const i = visible.findIndex((r) => r.path === (cursor ?? selectedPath));
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = visible[Math.max(0, Math.min(visible.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
      if (next) {
        setCursor(next.path);
        listRef.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(next.path)}"]`)?.scrollIntoView({ block: 'nearest' });
      }
    } else if (e.key === 'Enter' && cursor) {
      e.preventDefault();
      void openSession(cursor);
    }
  };

  return (
    <nav className="browser" aria-label="Sessions">
      <div className="browser-head">
        <h2>Sessions</h2>
        <span className="count">{sessions.length || ''}</span>
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
            if (visible[0]) setCursor(visible[0].path);
          } else if (e.key === 'Escape') setQuery('');
        }}
        aria-label="Search sessions"
        data-testid="search"
      />
      <label className="sort">
        <span>Sort</span>
        <select value={sort} onChange={(e) => setSort(e.target.value as SessionSort)} aria-label="Sort sessions">
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <div className="session-list" ref={listRef} tabIndex={0} onKeyDown={onListKey} role="listbox" aria-label="Session list" data-testid="session-list">
        {listLoaded && sessions.length === 0 ? <EmptySessions /> : null}
        {groups.map((g) => (
          <div key={g.key} className="project" role="group" aria-label={g.label}>
            <button type="button" className="project-head" onClick={() => setCollapsed({ ...collapsed, [g.key]: !collapsed[g.key] })} title={g.key}>
              <span className="caret">{collapsed[g.key] ? '▸' : '▾'}</span>
              <span className="project-name">{g.label}</span>
              <span className="dim">{g.rows.length}</span>
            </button>
            {collapsed[g.key]
              ? null
              : g.rows.map((r) => (
                  <SessionRowView
                    key={r.path}
                    row={r}
                    selected={r.path === selectedPath}
                    cursor={r.path === cursor}
                    flash={(flashed[r.path] ?? 0) > Date.now() - 2500}
                    onOpen={() => {
                      setCursor(r.path);
                      void openSession(r.path);
                    }}
                  />
                ))}
          </div>
        ))}
      </div>
      <IndexStatus done={progress.done} total={progress.total} phase={progress.phase} stage={progress.current} sessions={sessions.length} />
    </nav>
  );
}

function SessionRowView({ row, selected, cursor, flash, onOpen }: { row: SessionRow; selected: boolean; cursor: boolean; flash: boolean; onOpen: () => void }) {
  const ctx = row.contextTokens ?? row.estimatedTokens;
  return (
    <div
      className={`session-row${selected ? ' selected' : ''}${cursor ? ' cursor' : ''}${flash ? ' flash' : ''}`}
      role="option"
      aria-selected={selected}
      data-path={row.path}
      data-session-id={row.id}
      data-bytes={row.bytes}
      data-testid="session-row"
      onClick={onOpen}
      title={`${row.path}\n${humanBytes(row.bytes)}`}
    >
      <div className="row-title">
        {row.live ? <span className="live-dot" title="written to in the last few minutes" aria-label="live" /> : null}
        <span className="title-text">{row.title ?? row.id}</span>
        {row.fork ? <span className="tag fork">fork</span> : null}
        {row.forks.length > 0 ? (
          <span className="tag" title={row.forks.map((f) => f.sessionId).join('\n')} data-testid="row-forks">
            {row.forks.length} fork{row.forks.length === 1 ? '' : 's'}
          </span>
        ) : null}
      </div>
      {row.forkOf ? <ForkOfLine link={row.forkOf} /> : null}
      {row.retention || row.kept ? (
        <div className="row-meta">
          <RetentionMark retention={row.retention} kept={row.kept} />
        </div>
      ) : null}
      <div className="row-meta">
        <span>{ago(row.lastActivity)}</span>
        <span data-testid="row-size">{humanBytes(row.bytes)}</span>
        <span title={row.contextTokens === null ? 'estimated' : 'provider-reported'}>{humanTokens(ctx)} ctx</span>
        {row.problem ? (
          <span className="warn" title={row.problem}>
            ⚠ unreadable
          </span>
        ) : (
          <span className={row.reclaimableShare > 0.05 ? 'reclaim' : 'dim'} title={`${humanTokens(row.reclaimableTokens)} tokens provably dead`}>
            {pct(row.reclaimableShare)} dead
          </span>
        )}
      </div>
    </div>
  );
}

/** "fork of <original title>", a link to the original. */
function ForkOfLine({ link }: { link: NonNullable<SessionRow['forkOf']> }) {
  const openSession = useApp((s) => s.openSession);
  return (
    <div className="row-meta" data-testid="row-fork-of">
      <span className="dim">{link.kind === 'undo' ? 'restored from fork' : 'fork of'}</span>
      <button
        type="button"
        className="link"
        title={link.path}
        onClick={(e) => {
          e.stopPropagation();
          void openSession(link.path);
        }}
      >
        {link.title ?? link.sessionId.slice(0, 8)}
      </button>
    </div>
  );
}

function IndexStatus({ done, total, phase, stage, sessions }: { done: number; total: number; phase: string; stage: string | undefined; sessions: number }) {
  if (phase === 'idle') return <div className="index-status dim">Starting…</div>;
  if (phase === 'scanning') return <div className="index-status">Looking for sessions…</div>;
  if (phase === 'indexing') {
    return (
      <div className="index-status" role="status">
        <span>
          {stage ?? 'Indexing'} {done}/{total}
        </span>
        <progress max={total || 1} value={done} />
      </div>
    );
  }
  return (
    <div className="index-status dim" role="status">
      {sessions} session{sessions === 1 ? '' : 's'} indexed · watching for changes
    </div>
  );
}

function EmptySessions() {
  const roots = useApp((s) => s.roots);
  const samples = useApp((s) => s.samples);
  const query = useApp((s) => s.query);
  const openSession = useApp((s) => s.openSession);
  if (query) return <div className="empty-state">No session matches “{query}”.</div>;
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
