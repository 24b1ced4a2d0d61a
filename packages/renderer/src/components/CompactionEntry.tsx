import { useEffect, type ReactNode } from 'react';
import { useApp } from '../store';
import { useCompactions } from '../compaction-store';
import { CompactionXray } from './CompactionXray';
import { compactionChip, compactionCount } from '../compaction-labels';

/**
 * Loads the open session's compactions and opens their x-ray: from a marker on the context chart
 * (handed to the chart as `onCompaction`), or from the list under it (subagents' compactions too).
 */
export function CompactionEntry({ path, children }: { path: string; children: (onCompaction: ((responseLine: number) => void) | null) => ReactNode }) {
  const api = useApp((s) => s.api);
  const view = useCompactions((s) => s.view);
  const load = useCompactions((s) => s.load);
  const openXray = useCompactions((s) => s.openXray);
  useEffect(() => {
    void load(api, path);
  }, [api, path, load]);
  const main = view?.histories.find((h) => h.agentId === null);
  const all = view?.histories.flatMap((h) => h.compactions.map((c) => ({ agentId: h.agentId, c }))) ?? [];
  const unreached = view?.histories.flatMap((h) => h.unreached.map((u) => ({ agentId: h.agentId, u }))) ?? [];
  // The chart marks the first response after a compaction: the compaction is the last one before it.
  const onCompaction =
    main && main.compactions.length > 0
      ? (responseLine: number) => {
          const before = main.compactions.filter((c) => c.xray.line < responseLine).pop();
          if (before) openXray({ agentId: null, index: before.xray.index });
        }
      : null;
  return (
    <>
      {children(onCompaction)}
      {all.length > 0 || unreached.length > 0 ? (
        <div className="cx-entry" data-testid="compaction-entry">
          <span className="dim">
            What compaction forgot{main ? ` (${compactionCount(main)})` : ''}:
          </span>
          {all.map(({ agentId, c }) => (
            <button key={`${agentId ?? ''}:${c.xray.index}`} type="button" onClick={() => openXray({ agentId, index: c.xray.index })}>
              {agentId ? `subagent ${agentId.slice(0, 6)} ` : ''}
              {compactionChip(c)}
            </button>
          ))}
          {unreached.map(({ agentId, u }) => (
            <span key={`${agentId ?? ''}:u${u.line}`} className="cx-unreached dim" data-testid="compaction-unreached" title={u.reason}>
              {agentId ? `subagent ${agentId.slice(0, 6)} ` : ''}line {u.line} {u.trigger} · not reached: {u.reason}
            </span>
          ))}
        </div>
      ) : null}
      <CompactionXray api={api} path={path} />
    </>
  );
}
