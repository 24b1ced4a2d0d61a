import { useState } from 'react';
import { DEAD_CLASSES, SEGMENT_CLASSES, type ClassifiedSnapshot, type SegmentClass } from '@glassbox/core';
import type { SnapshotView } from '@glassbox/contract';
import { CLASS_COLOUR, CLASS_LABEL, HATCHED } from '../palette';
import { exact, humanTokens, pct } from '../format';
import { useApp } from '../store';
import { groupLabel } from '../treemap-layout';
import { Treemap } from './Treemap';
import { TurnsChart } from './TurnsChart';
import { ForkActions, Lineage } from './ForkPanel';
import { KeepAction } from './retention/KeepAction';
import { CompactionEntry } from './CompactionEntry';

const DEAD = DEAD_CLASSES;

export function WindowView() {
  const view = useApp((s) => s.view);
  const loading = useApp((s) => s.viewLoading);
  const error = useApp((s) => s.viewError);
  const selectedPath = useApp((s) => s.selectedPath);

  if (!selectedPath) {
    return (
      <main className="window empty-pane">
        <div className="hint big">
          <h2>Open a session</h2>
          <p>Pick a session on the left (↑↓ and Enter), or drop a <code>.jsonl</code> transcript anywhere on this window.</p>
          <p className="dim">Glassbox reads transcripts; it never changes them. A cleaned copy is written only by the fork wizard, after its checks pass.</p>
        </div>
      </main>
    );
  }
  if (error && !view) {
    return (
      <main className="window empty-pane">
        <div className="hint big error-box" role="alert" data-testid="view-error">
          <h2>This session cannot be shown</h2>
          <p>{error.message}</p>
          {error.hint ? <p className="dim">{error.hint}</p> : null}
        </div>
      </main>
    );
  }
  if (!view || (loading && view.snapshot.session.path !== selectedPath && !selectedPath.startsWith('upload:'))) {
    return (
      <main className="window empty-pane" aria-busy="true">
        <div className="loading">Reading the session and checking every proof…</div>
      </main>
    );
  }
  return (
    <main className="window" aria-label="Context window">
      <WindowHeader view={view} />
      <Treemap snapshot={view.snapshot} />
      <CompactionEntry path={selectedPath}>{(onCompaction) => <TurnsChart snapshot={view.snapshot} {...(onCompaction ? { onCompaction } : {})} />}</CompactionEntry>
    </main>
  );
}

function WindowHeader({ view }: { view: SnapshotView }) {
  const { snapshot, repoNote, figures } = view;
  const willSend = view.lineage.willSend;
  const groupBy = useApp((s) => s.groupBy);
  const setGroupBy = useApp((s) => s.setGroupBy);
  const zoom = useApp((s) => s.zoom);
  const setZoom = useApp((s) => s.setZoom);
  const withSpent = useApp((s) => s.withSpent);
  const setWithSpent = useApp((s) => s.setWithSpent);
  const model = useApp((s) => s.model);
  const setModel = useApp((s) => s.setModel);
  const showUnattributed = useApp((s) => s.showUnattributed);
  const setShowUnattributed = useApp((s) => s.setShowUnattributed);
  const c = snapshot.context;
  const whole = figures.windowTokens;
  const r = snapshot.reclaimable;
  const present = new Set<SegmentClass>(snapshot.segments.map((s) => s.class));
  const nothingDead = DEAD.every((k) => r.byClass[k].segments === 0);
  return (
    <header className="window-head">
      <div className="totals">
        {willSend ? (
          <>
            <span className="big-num" title={`${exact(willSend.estimatedTokens)} tokens: the original's reported figure minus what the fork removed, net of tombstones (estimated)`} data-testid="will-send">
              ≈{humanTokens(willSend.estimatedTokens)}
            </span>
            <span className="dim">tokens the fork will send (estimated)</span>
            <span className="sep">·</span>
            <span title={`${exact(willSend.originalReportedTokens)} tokens, provider-reported for the original's last request`}>{humanTokens(willSend.originalReportedTokens)}</span>
            <span className="dim">reported for the original</span>
          </>
        ) : (
          <>
            <span className="big-num" title={c.reportedTokens === null ? 'no provider-reported usage' : `${exact(c.reportedTokens)} tokens, provider-reported`}>
              {c.reportedTokens === null ? '—' : humanTokens(c.reportedTokens)}
            </span>
            <span className="dim">tokens reported</span>
          </>
        )}
        {/* A fork not resumed yet has only the original's reported usage: its estimates are scaled to that, so they are not shown. */}
        {willSend ? null : (
          <>
            <span className="sep">·</span>
            <span title={`${exact(c.estimatedTokens)} tokens, local estimate (${c.calibration.basis})`}>{humanTokens(c.estimatedTokens)}</span>
            <span className="dim">estimated in the transcript</span>
          </>
        )}
        {c.unattributedTokens > 0 && !willSend ? (
          <>
            <span className="sep">·</span>
            <span title="reported minus what the transcript accounts for">{humanTokens(c.unattributedTokens)}</span>
            <span className="dim">system prompt, tools, memory</span>
          </>
        ) : null}
      </div>
      <div className="reclaim">
        <span className="reclaim-num" data-testid="reclaimable">
          reclaimable {humanTokens(figures.reclaimableTokens)} ({pct(figures.deadShare)})
        </span>
        <div className="reclaim-bar" role="img" aria-label="Reclaimable tokens by class">
          {DEAD.map((k) =>
            r.byClass[k].tokens > 0 ? (
              <span
                key={k}
                className={HATCHED.has(k) ? 'hatched' : ''}
                style={{ width: `${Math.max(0.5, (r.byClass[k].tokens / Math.max(1, whole)) * 100)}%`, background: CLASS_COLOUR[k] }}
                title={`${CLASS_LABEL[k]}: ${humanTokens(r.byClass[k].tokens)} tokens in ${r.byClass[k].segments} segment(s)`}
              />
            ) : null,
          )}
        </div>
        {nothingDead ? <span className="dim small" data-testid="nothing-dead">Nothing here is provably dead — that is a normal result.</span> : null}
      </div>
      <div className="controls">
        <div className="seg-toggle" role="group" aria-label="Group by">
          <span className="dim">group</span>
          <button type="button" className={groupBy === 'class' ? 'on' : ''} onClick={() => setGroupBy('class')} aria-pressed={groupBy === 'class'}>
            class
          </button>
          <button type="button" className={groupBy === 'source' ? 'on' : ''} onClick={() => setGroupBy('source')} aria-pressed={groupBy === 'source'}>
            source
          </button>
        </div>
        <nav className="crumbs" aria-label="Drill-down">
          <button type="button" className="link" onClick={() => setZoom([])} disabled={zoom.length === 0}>
            window
          </button>
          {zoom.map((z, i) => (
            <span key={z}>
              {' › '}
              <button type="button" className="link" onClick={() => setZoom(zoom.slice(0, i + 1))} disabled={i === zoom.length - 1}>
                {i === 0 ? groupLabel(z, groupBy) : z}
              </button>
            </span>
          ))}
        </nav>
        <label className="check">
          <input type="checkbox" checked={withSpent} onChange={(e) => setWithSpent(e.target.checked)} /> inferred <em>spent</em>
        </label>
        {snapshot.request ? (
          <label className="check" title={`Only this model's own reasoning is sent. ${snapshot.request.modelBasis}`}>
            next request on{' '}
            <select value={model ?? ''} onChange={(e) => setModel(e.target.value === '' ? null : e.target.value)} data-testid="request-model">
              <option value="">{model ? 'as the client would' : `${snapshot.request.model ?? 'unknown'} (as the client would)`}</option>
              {[...new Set([...snapshot.request.models, ...(snapshot.request.model ? [snapshot.request.model] : [])])].map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {c.unattributedTokens > 0 ? (
          <label className="check" title="The reported total minus what the transcript accounts for">
            <input type="checkbox" checked={showUnattributed} onChange={(e) => setShowUnattributed(e.target.checked)} data-testid="toggle-unattributed" /> system prompt &amp; tools
          </label>
        ) : null}
        <ul className="legend" aria-label="Legend">
          {[...SEGMENT_CLASSES, 'unattributed' as const].map((k) =>
            k === 'unattributed' ? (
              c.unattributedTokens > 0 ? <LegendItem key={k} k={k} /> : null
            ) : present.has(k) || k === 'live' ? (
              <LegendItem key={k} k={k} />
            ) : null,
          )}
        </ul>
      </div>
      <RepoLine snapshot={snapshot} repoNote={repoNote} />
      <Lineage view={view} />
      <KeepAction view={view} />
      <ForkActions view={view} />
      <Subagents snapshot={snapshot} />
    </header>
  );
}

function LegendItem({ k }: { k: SegmentClass | 'unattributed' }) {
  return (
    <li>
      <span className={`swatch${HATCHED.has(k) ? ' hatched' : ''}`} style={{ background: CLASS_COLOUR[k] }} />
      {CLASS_LABEL[k]}
    </li>
  );
}

function RepoLine({ snapshot, repoNote }: { snapshot: ClassifiedSnapshot; repoNote: string }) {
  const mapRepo = useApp((s) => s.mapRepo);
  const [editing, setEditing] = useState(false);
  const [folder, setFolder] = useState('');
  const cwd = snapshot.session.cwd;
  if (!cwd) return null;
  const missing = !snapshot.session.repoExists;
  return (
    <div className={`repo-line${missing ? ' missing' : ''}`}>
      <span className="dim">working directory</span> <code title={repoNote}>{middle(repoNote, 110)}</code>
      {missing ? <span className="warn" title="Without the project's files, nothing can be proven gone or drifted."> — not on this machine</span> : null}
      {editing ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void mapRepo(cwd, folder).then((okay) => okay && setEditing(false));
          }}
        >
          <input autoFocus value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/path/to/the/checkout" aria-label="Folder that holds the project now" />
          <button type="submit">Map</button>
          <button type="button" className="link" onClick={() => setEditing(false)}>
            cancel
          </button>
        </form>
      ) : (
        <button type="button" className="link" onClick={() => setEditing(true)}>
          {missing ? 'Map it to a folder…' : 'change…'}
        </button>
      )}
    </div>
  );
}

/** Long paths keep their start and their end. */
function middle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(-half)}`;
}

/** Subagents have windows of their own: linked here, opened like sessions. */
function Subagents({ snapshot }: { snapshot: ClassifiedSnapshot }) {
  const openSession = useApp((s) => s.openSession);
  if (snapshot.subagents.length === 0) return null;
  return (
    <div className="repo-line" data-testid="subagents">
      <span className="dim">subagent windows</span>
      {snapshot.subagents.map((a) => (
        <button key={a.path} type="button" className="link" onClick={() => void openSession(a.path)} title={a.path}>
          {a.description ?? a.agentType ?? a.agentId} ({humanTokens(a.reportedTokens ?? a.estimatedTokens)})
        </button>
      ))}
    </div>
  );
}
