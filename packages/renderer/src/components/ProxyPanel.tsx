import { useEffect, useState } from 'react';
import type { ProxyView } from '@glassbox/contract';
import type { SegmentClass } from '@glassbox/core';
import { CLASS_COLOUR } from '../palette';
import { ago, tokenCount } from '../format';
import { useApp } from '../store';
import { byRequest, conversationName, conversationSummary, momentText } from '../proxy-labels';

/** How often the open panel asks again: the proxy runs in another process and writes as requests go by. */
const REFRESH_MS = 5000;

/**
 * What `glassbox proxy` did to live conversations: per conversation, its figures and what was removed
 * at which request (and why then). Read-only; a payload comes back with `glassbox show proxy`.
 */
export function ProxyPanel({ onClose }: { onClose: () => void }) {
  const api = useApp((s) => s.api);
  const [view, setView] = useState<ProxyView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stop = false;
    const load = (): void => {
      void api.invoke('proxy:conversations', {}).then((r) => {
        if (stop) return;
        if (r.ok) {
          setView(r.value);
          setError(null);
        } else setError(r.error.message);
      });
    };
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [api]);
  return (
    <section className="proxy-panel" aria-labelledby="proxy-title" data-testid="proxy-panel">
      <header className="proxy-head">
        <h2 id="proxy-title">Proxied conversations</h2>
        <button type="button" className="close" onClick={onClose} aria-label="Close the proxy panel">
          ×
        </button>
      </header>
      {error ? <p role="alert">{error}</p> : null}
      {view && view.conversations.length === 0 ? (
        <p className="dim">Nothing has gone through the proxy yet. Run <code>glassbox proxy run -- claude</code>, or <code>glassbox proxy serve</code> and point ANTHROPIC_BASE_URL at it.</p>
      ) : null}
      <ul className="proxy-list">
        {view?.conversations.map((c) => (
          <li key={c.id}>
            <div>
              <strong>{conversationName(c)}</strong> <span className="dim">last request {ago(c.lastRequestAt)}</span>
            </div>
            <div className="dim">{conversationSummary(c)}</div>
            {c.suspended ? (
              <div className="proxy-suspended">
                Rewrites suspended since request {c.suspended.request}: {c.suspended.reason}
              </div>
            ) : null}
            {c.removals.length > 0 ? (
              <ol className="proxy-removals" aria-label={`What was removed from ${conversationName(c)}`}>
                {byRequest(c.removals).map((g) => (
                  <li key={g.request}>
                    Request {g.request}{g.removals[0] ? ` (${momentText(g.removals[0])})` : ''}:{' '}
                    {g.removals.map((r, i) => (
                      <span key={r.sha256Prefix} title={`glassbox show proxy --segment ${r.sha256Prefix}`}>
                        {i > 0 ? ', ' : ''}
                        {r.source} <span className="tag" style={{ borderColor: CLASS_COLOUR[r.class as SegmentClass] ?? undefined }}>{r.class}</span> −{tokenCount(r.savedTokens)}
                      </span>
                    ))}
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
