import { memo } from 'react';
import type { SessionRow } from '@glassbox/contract';
import { formatUsd, visibleText } from '@glassbox/core';
import { ago, humanBytes, humanTokens, pct } from '../../format';
import { sessionTitle } from '../../labels';
import { RetentionMark } from '../retention/RetentionMark';
import { SearchSnippet } from './SearchSnippet';

/** One session in the list: its title, links to forks, keeping, and figures (memoised: the list scrolls a lot). */
export const SessionRowView = memo(function SessionRowView({
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
  const untitled = title !== visibleText((row.title ?? '').split('\n')[0]?.trim() ?? '');
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
      title={`${visibleText(row.path)}\n${humanBytes(row.bytes)}`}
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
          <span className="row-link" title={visibleText(row.forkOf.path)}>
            {visibleText(row.forkOf.title ?? row.forkOf.sessionId.slice(0, 8))}
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
          <span className="warn" title={visibleText(row.problem)}>
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
        <div className="row-meta warn" title={visibleText(row.warning)} data-testid="row-warning">
          ⚠ {visibleText(row.warning)}
        </div>
      ) : null}
      {row.matched ? (
        <div className="row-meta matched" data-testid="row-matched">
          matched in {visibleText(row.matched)}
        </div>
      ) : null}
      {row.snippet && row.snippet.length > 0 ? <SearchSnippet parts={row.snippet} /> : null}
    </div>
  );
});
