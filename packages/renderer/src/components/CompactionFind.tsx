import { useState } from 'react';
import { visibleText } from '@glassbox/core';
import type { GlassboxApi } from '@glassbox/contract';
import { useCompactions } from '../compaction-store';
import { CARRIED_LABEL } from '../compaction-labels';

/** "Where did ECONNRESET go?": every compacted segment that held a string, and which summaries still have it. */
export function CompactionFind({ api }: { api: GlassboxApi }) {
  const search = useCompactions((s) => s.search);
  const searching = useCompactions((s) => s.searching);
  const find = useCompactions((s) => s.find);
  const jumpTo = useCompactions((s) => s.jumpTo);
  const [query, setQuery] = useState(search?.query ?? '');
  return (
    <div className="cx-find">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void find(api, query);
        }}
      >
        <label>
          Find in every compacted part{' '}
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="ECONNRESET, a path, a decision…" data-testid="cx-find-input" />
        </label>
        <button type="submit" disabled={searching || query.trim().length === 0}>
          Find
        </button>
      </form>
      {search ? (
        <div aria-live="polite" data-testid="cx-find-result">
          <p>
            {search.hits.length === 0 ? `No compacted part held “${search.query}”.` : `${search.hits.length}${search.truncated ? '+' : ''} compacted segment(s) held “${search.query}”.`}{' '}
            {search.summaries.map((s) => `Summary ${s.agentId ? `${s.agentId} ` : ''}#${s.index} ${s.found ? 'has it' : 'does not have it'}`).join(' · ')}
          </p>
          <ul className="cx-items">
            {search.hits.map((h) => (
              <li key={`${h.agentId ?? ''}:${h.segmentId}`} className={`cx-item carried-${h.fates[h.fates.length - 1]?.carried ?? 'none'}`}>
                <button type="button" className="cx-row" onClick={() => jumpTo({ agentId: h.agentId, index: h.index, segmentId: h.segmentId, uuid: h.uuid, line: h.line })}>
                  <span className="dim">
                    {h.agentId ? `subagent ${h.agentId.slice(0, 6)} · ` : ''}line {h.line}
                  </span>
                  <span className="what">
                    {h.kind} {visibleText(h.label)}
                  </span>
                  <span className="has">{h.fates.map((f) => `#${f.index} ${CARRIED_LABEL[f.carried]}`).join(' → ')}</span>
                  {h.dead ? <span className="badge dead-anyway">dead anyway</span> : null}
                  <span className="snippet">{visibleText(h.snippet)}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
