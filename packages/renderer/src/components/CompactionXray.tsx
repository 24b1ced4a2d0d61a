import { useEffect, useRef, useState } from 'react';
import { visibleText } from '@glassbox/core';
import type { CompactionItem, CompactionReport } from '@glassbox/core';
import type { GlassboxApi } from '@glassbox/contract';
import { clock, humanTokens, pct } from '../format';
import { useCompactions } from '../compaction-store';
import { CompactionTreemaps } from './CompactionTreemaps';
import { CompactedItems } from './CompactedItems';
import { beforeFigure, relative } from '../compaction-labels';
import { CompactionFind } from './CompactionFind';

type Tab = 'dropped' | 'window' | 'find';

/**
 * What a compaction forgot: the window before it beside the window after it, the dropped list largest
 * first (dead anyway or not), the whole window before it in order, and a search across every
 * compacted part. Opened from a compaction marker on the context chart.
 */
export function CompactionXray({ api, path }: { api: GlassboxApi; path: string }) {
  const view = useCompactions((s) => s.view);
  const open = useCompactions((s) => s.open);
  const target = useCompactions((s) => s.target);
  const close = useCompactions((s) => s.close);
  const openXray = useCompactions((s) => s.openXray);
  const jumpTo = useCompactions((s) => s.jumpTo);
  const [tab, setTab] = useState<Tab>('dropped');
  const [selected, setSelected] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const history = view?.histories.find((h) => h.agentId === (open?.agentId ?? null));
  const report = history?.compactions.find((c) => c.xray.index === open?.index);

  useEffect(() => {
    headingRef.current?.focus();
  }, [open?.agentId, open?.index]);
  // A jump (from the dropped list or a search hit) reads the window before, at that item.
  useEffect(() => {
    if (!target) return;
    setTab('window');
    setSelected(target.segmentId);
  }, [target]);

  if (!open || !view) return null;
  const all = view.histories.flatMap((h) => h.compactions.map((c) => ({ agentId: h.agentId, c })));
  const select = (item: CompactionItem) => setSelected((s) => (s === item.segmentId ? null : item.segmentId));
  return (
    <div
      className="cx-dialog"
      role="dialog"
      aria-modal="true"
      aria-labelledby="cx-title"
      data-testid="compaction-xray"
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <header className="cx-head">
        <h2 id="cx-title" tabIndex={-1} ref={headingRef}>
          {report ? title(report, open.agentId) : 'Compaction'}
        </h2>
        <nav aria-label="Compactions">
          {all.map(({ agentId, c }) => (
            <button key={`${agentId ?? ''}:${c.xray.index}`} type="button" aria-current={agentId === open.agentId && c.xray.index === open.index} onClick={() => openXray({ agentId, index: c.xray.index })}>
              {agentId ? `${agentId.slice(0, 6)} ` : ''}#{c.xray.index}
            </button>
          ))}
        </nav>
        <button type="button" className="close" onClick={close} aria-label="Close the compaction x-ray">
          ×
        </button>
      </header>
      {report ? (
        <>
          <Figures report={report} cwd={history?.cwd ?? null} />
          <CompactionTreemaps report={report} cwd={history?.cwd ?? null} selected={selected} onSelect={(i) => { setTab(i.carried === 'partial' || i.carried === 'none' ? 'dropped' : 'window'); setSelected(i.segmentId); }} />
          <div className="seg-toggle" role="tablist" aria-label="What to list">
            {(['dropped', 'window', 'find'] as const).map((t) => (
              <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
                {t === 'dropped' ? `Dropped (${report.xray.dropped.length})` : t === 'window' ? 'The conversation before' : 'Find'}
              </button>
            ))}
          </div>
          <div role="tabpanel" className="cx-panel">
            {tab === 'find' ? (
              <CompactionFind api={api} />
            ) : (
              <CompactedItems
                api={api}
                path={path}
                agentId={open.agentId}
                cwd={history?.cwd ?? null}
                report={report}
                mode={tab}
                selected={selected}
                onSelect={select}
                onJump={(item) => jumpTo({ agentId: open.agentId, index: report.xray.index, segmentId: item.segmentId, uuid: item.uuid, line: item.line })}
              />
            )}
          </div>
        </>
      ) : (
        <p className="dim">That compaction is not on the live conversation.</p>
      )}
    </div>
  );
}

function title(r: CompactionReport, agentId: string | null): string {
  const who = agentId ? `Subagent ${agentId}: compaction` : 'Compaction';
  return `${who} #${r.xray.index} · ${r.xray.trigger} · line ${r.xray.line}${r.xray.at ? ` · ${clock(r.xray.at)}` : ''}`;
}

function Figures({ report, cwd }: { report: CompactionReport; cwd: string | null }) {
  const x = report.xray;
  const f = report.figures;
  const before = beforeFigure(x, f.windowTokens);
  return (
    <div className="cx-figures" data-testid="cx-figures">
      <p>
        Before it:{' '}
        <strong title={before.others ? `${before.source}; ${before.others}` : before.source} data-testid="cx-before-size">
          {before.tokens !== null ? `${humanTokens(before.tokens)} tokens` : 'no reported size'}
        </strong>{' '}
        <span className="dim">({before.source}{before.others ? '; hover for the other figures' : ''})</span> · summary <strong>{humanTokens(x.summaryTokens)} tokens</strong>
        {report.postTokens !== null ? ` · next request ${humanTokens(report.postTokens)} tokens` : ''}
      </p>
      {f.windowTokens > 0 ? (
        <p>
          Kept <strong>{pct(f.keptTokens / f.windowTokens)}</strong> of the messages before it ({humanTokens(f.keptTokens)} of {humanTokens(f.windowTokens)}) · dropped {humanTokens(f.droppedTokens)}, of which{' '}
          <strong>{humanTokens(f.droppedDeadTokens)}</strong> was dead anyway
          {f.droppedTokens ? ` (${pct(f.droppedDeadTokens / f.droppedTokens)})` : ''}
        </p>
      ) : (
        <p className="dim">This file holds none of the conversation before it (it began with the compaction), so nothing can be shown as kept or dropped.</p>
      )}
      {report.instructions ? <p>Asked to keep: “{visibleText(report.instructions)}”</p> : null}
      {x.reattached.length > 0 ? <p className="dim">Attached again after it: {x.reattached.map((r) => relative(r.label, cwd)).join(', ')}</p> : null}
    </div>
  );
}
