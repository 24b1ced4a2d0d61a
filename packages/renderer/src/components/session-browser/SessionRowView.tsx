import { memo } from 'react';
import type { SessionRow } from '@glassbox/contract';
import { formatUsd, visibleText } from '@glassbox/core';
import { ago, humanBytes, humanTokens, pct } from '../../format';
import { sessionTitle } from '../../labels';
import { retentionLabel, rowRetentionLabel } from '../../retention-labels';
import { RetentionText } from '../retention/RetentionMark';
import { AgentBadge } from './AgentBadge';
import { SearchSnippet } from './SearchSnippet';

/**
 * One session in the list: its title (two lines at most), its agent, links to forks, what sets its
 * keeping apart, and figures that wrap rather than being cut. Memoised: the list scrolls a lot. A click
 * is the list's to handle (by the row under the press: the list may re-order between press and release).
 */
export const SessionRowView = memo(function SessionRowView({
  id,
  line,
  index,
  row,
  level,
  project,
  top,
  selected,
  cursor,
  flash,
  measure,
}: {
  id: string;
  /** Its line's id in the list (`row-<path>`): what a click on it opens. */
  line: string;
  /** Its line in the virtualised list, for the measuring of its height. */
  index: number;
  row: SessionRow;
  level: number;
  /** The project named on the row, when it has no header of its own. */
  project: string | null;
  top: number;
  selected: boolean;
  cursor: boolean;
  flash: boolean;
  measure: (el: HTMLElement | null) => void;
}) {
  const ctx = row.contextTokens ?? row.estimatedTokens;
  const title = sessionTitle(row.title, { project: row.project, lastActivity: row.lastActivity });
  const untitled = title !== visibleText((row.title ?? '').split('\n')[0]?.trim() ?? '');
  const keeping = rowRetentionLabel(row.retention, row.kept);
  const usual = keeping ? null : retentionLabel(row.retention, row.kept);
  return (
    <div
      id={id}
      ref={measure}
      data-index={index}
      data-line={line}
      className={`session-row${level === 1 ? ' flat' : ''}${selected ? ' selected' : ''}${cursor ? ' cursor' : ''}${flash ? ' flash' : ''}`}
      role="treeitem"
      aria-level={level}
      aria-selected={selected}
      style={{ transform: `translateY(${top}px)` }}
      data-path={row.path}
      data-session-id={row.id}
      data-bytes={row.bytes}
      data-testid="session-row"
      title={`${visibleText(row.path)}\n${humanBytes(row.bytes)}${usual ? `\n${usual.text}` : ''}`}
    >
      <div className="row-title">
        {row.live ? <span className="live-dot" title="written to in the last few minutes" /> : null}
        <span className={`title-text${untitled ? ' untitled' : ''}`}>{title}</span>
      </div>
      <div className="row-meta row-tags">
        {row.agent ? <AgentBadge agent={row.agent} /> : null}
        {project ? (
          <span className="row-project" data-testid="row-project">
            {visibleText(project)}
          </span>
        ) : null}
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
      {keeping ? (
        <div className="row-meta">
          <RetentionText label={keeping} />
        </div>
      ) : null}
      <div className="row-meta row-figures">
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
