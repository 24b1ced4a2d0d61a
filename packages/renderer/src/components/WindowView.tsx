import { useState, type ReactNode } from 'react';
import { DEAD_CLASSES, INFERRED_CLASSES, SEGMENT_CLASSES, type ClassifiedSnapshot, type SegmentClass, visibleText } from '@glassbox/core';
import type { SnapshotView } from '@glassbox/contract';
import { CLASS_COLOUR, CLASS_LABEL, HATCHED, shownClass } from '../palette';
import { exact, humanTokens, pct } from '../format';
import { formatUsd } from '@glassbox/core';
import { ContextBar, ContextSum } from './ContextBar';
import { ConversationView } from './ConversationView';
import { CostPanel } from './CostPanel';
import { useApp } from '../store';
import { groupLabel } from '../treemap-layout';
import { Treemap } from './Treemap';
import { RemovePanel } from './RemovePanel';
import { TurnsChart } from './TurnsChart';
import { ForkActions, Lineage } from './ForkPanel';
import { KeepAction } from './retention/KeepAction';
import { CompactionEntry } from './CompactionEntry';
import { EmptySessions } from './session-browser/EmptyList';
import { useNarrow } from '../use-narrow';

/** The inferred classes the switch turns on (elision has its own step: it needs thresholds). */
const INFERRED_SWITCHED = INFERRED_CLASSES.filter((c) => c !== 'elided');

const DEAD = DEAD_CLASSES;

export function WindowView() {
  const view = useApp((s) => s.view);
  const loading = useApp((s) => s.viewLoading);
  const error = useApp((s) => s.viewError);
  const selectedPath = useApp((s) => s.selectedPath);
  const centre = useApp((s) => s.centreView);
  const noSessions = useApp((s) => s.listLoaded && s.listTotal === 0 && s.query === '');

  if (!selectedPath && noSessions) {
    return (
      <main className="window empty-pane" id="main">
        <EmptySessions />
      </main>
    );
  }
  if (!selectedPath) {
    return (
      <main className="window empty-pane" id="main">
        <div className="hint big">
          <h2>Open a session</h2>
          <p>Pick a session on the left (↑↓ and Enter), or drop a session file (<code>.jsonl</code> or <code>.json</code>) anywhere on this window.</p>
          <p className="dim">Glassbox reads transcripts; it never changes them. A cleaned copy is written only by the fork wizard, after its checks pass.</p>
        </div>
      </main>
    );
  }
  if (error && !view) {
    return (
      <main className="window empty-pane" id="main">
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
      <main className="window empty-pane" aria-busy="true" id="main">
        <div className="loading">Reading the session and checking every proof…</div>
      </main>
    );
  }
  return (
    <main className="window" aria-label="Context window" id="main">
      <WindowHeader view={view} />
      <Tabs />
      {centre === 'treemap' ? (
        <div className="tab-panel treemap-panel" role="tabpanel" id="panel-treemap" aria-labelledby="tab-treemap">
          <TreemapControls view={view} />
          <div className="tm-row">
            <Treemap snapshot={view.snapshot} />
            <RemovePanel view={view} />
          </div>
          <CompactionEntry path={selectedPath}>
            {(onCompaction) => <TurnsChart snapshot={view.snapshot} additions={view.turnAdditions ?? []} {...(onCompaction ? { onCompaction } : {})} />}
          </CompactionEntry>
        </div>
      ) : centre === 'conversation' ? (
        <div className="tab-panel" role="tabpanel" id="panel-conversation" aria-labelledby="tab-conversation">
          <ConversationView path={view.snapshot.session.path === selectedPath ? view.snapshot.session.path : selectedPath} />
        </div>
      ) : (
        <div className="tab-panel" role="tabpanel" id="panel-cost" aria-labelledby="tab-cost">
          <CostPanel path={selectedPath} />
        </div>
      )}
    </main>
  );
}

const TABS = [
  { id: 'treemap', label: 'Treemap' },
  { id: 'conversation', label: 'Conversation' },
  { id: 'cost', label: 'Cost' },
] as const;

/** Treemap, conversation, cost: one tab stop, arrows move between them. */
function Tabs() {
  const centre = useApp((s) => s.centreView);
  const setCentre = useApp((s) => s.setCentreView);
  return (
    <div className="tabs" role="tablist" aria-label="View">
      {TABS.map((t, i) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`tab-${t.id}`}
          aria-selected={centre === t.id}
          aria-controls={`panel-${t.id}`}
          tabIndex={centre === t.id ? 0 : -1}
          data-testid={`tab-${t.id}`}
          onClick={() => setCentre(t.id)}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
            e.preventDefault();
            const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length] ?? TABS[0];
            setCentre(next.id);
            document.getElementById(`tab-${next.id}`)?.focus();
          }}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

function WindowHeader({ view }: { view: SnapshotView }) {
  const { snapshot, repoNote, figures } = view;
  const willSend = view.lineage.willSend;
  const c = snapshot.context;
  const whole = figures.windowTokens;
  const r = snapshot.reclaimable;
  const nothingDead = DEAD.every((k) => r.byClass[k].segments === 0);
  const narrow = useNarrow();
  return (
    <header className={`window-head${narrow ? ' compact' : ''}`}>
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
            <span className="dim">estimated</span>
          </>
        )}
        {/* Narrow, the context bar's legend gives this part (its size and share): said once. */}
        {c.unattributedTokens > 0 && !willSend && !narrow ? (
          <>
            <span className="sep">·</span>
            <span title="reported minus what the transcript accounts for">{humanTokens(c.unattributedTokens)}</span>
            <span className="dim">system prompt &amp; tools</span>
          </>
        ) : null}
        {view.cost ? (
          <>
            <span className="sep">·</span>
            <span data-testid="header-cost" title={`at list prices of ${view.cost.priceAsOf}, with subagents${view.cost.unknownModels.length ? `; no price for ${view.cost.unknownModels.join(', ')}` : ''}`}>
              {view.cost.usd === null ? 'cost unknown' : formatUsd(view.cost.usd)}
            </span>
            <span className="dim">at list prices</span>
            {view.cost.client ? (
              <span className={view.cost.client.differs ? 'warn' : 'dim'} data-testid="header-client-cost" title="the client's own running figure, recorded in the transcript">
                {' '}
                (client: {formatUsd(view.cost.client.usd)}
                {view.cost.client.differs ? ', differs by more than 1%' : ''})
              </span>
            ) : null}
          </>
        ) : null}
      </div>
      <div className="reclaim">
        <span className="reclaim-num" data-testid="reclaimable">
          reclaimable {humanTokens(figures.reclaimableTokens)} ({pct(figures.deadShare)})
        </span>
        {/* An empty bar says nothing the sentence beside it doesn't, and at 800 px it pushes the sentence onto a row of its own. */}
        {nothingDead ? null : (
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
        )}
        {nothingDead ? <span className="dim small" data-testid="nothing-dead">Nothing here is provably dead — that is a normal result.</span> : null}
      </div>
      <ContextBar view={view} withSum={!narrow} />
      <Problems view={view} />
      {narrow ? null : <ModelPicker view={view} />}
      <HeadDetails narrow={narrow} view={view}>
        {narrow ? <ModelPicker view={view} /> : null}
        {narrow ? <ContextSum view={view} /> : null}
        <RepoLine snapshot={snapshot} repoNote={repoNote} />
        <KeepAction view={view} />
        <Subagents snapshot={snapshot} />
      </HeadDetails>
      <Lineage view={view} />
      <ForkActions view={view} />
    </header>
  );
}

/**
 * Narrow, the header keeps the figures of the window in view (totals, the bar with each part's size and
 * share and the free space, the auto-compaction point) and the assumed model's name in the summary of
 * one disclosure holding the rest — the model picker with why it was assumed, how the parts add up, the
 * working directory, retention, subagents — so the treemap keeps the height. Opened by default when the
 * project's folder is missing: that warning must be seen.
 */
function HeadDetails({ narrow, view, children }: { narrow: boolean; view: SnapshotView; children: ReactNode }) {
  const chosen = useApp((s) => s.model);
  const cwdMissing = view.snapshot.session.cwd !== null && !view.snapshot.session.repoExists;
  const [open, setOpen] = useState(cwdMissing);
  if (!narrow) return <>{children}</>;
  const model = chosen ?? view.snapshot.request?.model ?? null;
  return (
    <details className="head-details" data-testid="head-details" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        {model ? `next request: ${visibleText(model)}, ${chosen ? 'chosen by you' : 'assumed'} · why, ` : ''}the sum, working directory, retention
        {cwdMissing ? <span className="warn"> · project folder not on this machine</span> : null}
      </summary>
      {children}
    </details>
  );
}

/** Grouping, drill-down, the inferred class, where the system prompt is drawn, and the legend. */
function TreemapControls({ view }: { view: SnapshotView }) {
  const snapshot = view.snapshot;
  const groupBy = useApp((s) => s.groupBy);
  const setGroupBy = useApp((s) => s.setGroupBy);
  const zoom = useApp((s) => s.zoom);
  const setZoom = useApp((s) => s.setZoom);
  const withInferred = useApp((s) => s.withInferred);
  const setWithInferred = useApp((s) => s.setWithInferred);
  const showUnattributed = useApp((s) => s.showUnattributed);
  const setShowUnattributed = useApp((s) => s.setShowUnattributed);
  const deadOnly = useApp((s) => s.deadOnly);
  const setDeadOnly = useApp((s) => s.setDeadOnly);
  const c = snapshot.context;
  const present = new Set<SegmentClass>(snapshot.segments.map(shownClass));
  return (
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
          <button type="button" className="link" onClick={() => setZoom([])} disabled={zoom.length === 0} title={zoom.length === 0 ? 'The whole window is shown: click a group or a merged block to drill in, then this goes back' : 'Back to the whole window'}>
            window
          </button>
          {zoom.map((z, i) => (
            <span key={z}>
              {' › '}
              <button type="button" className="link" onClick={() => setZoom(zoom.slice(0, i + 1))} disabled={i === zoom.length - 1} title={i === zoom.length - 1 ? 'Shown now' : undefined}>
                {i === 0 ? groupLabel(z, groupBy) : z}
              </button>
            </span>
          ))}
        </nav>
        <label className="check" title="Only what a fork could remove, each block sized by the tokens removing it frees">
          <input type="checkbox" checked={deadOnly} onChange={(e) => setDeadOnly(e.target.checked)} data-testid="dead-only" /> dead only
        </label>
        <label className="check">
          <input type="checkbox" checked={withInferred} onChange={(e) => setWithInferred(e.target.checked)} /> inferred <em>{INFERRED_SWITCHED.join(', ')}</em>
        </label>
        {c.unattributedTokens > 0 && !deadOnly ? (
          <label className="check" title="The reported total minus what the transcript accounts for: drawn in the context bar above, or as a tile here">
            <input type="checkbox" checked={showUnattributed} onChange={(e) => setShowUnattributed(e.target.checked)} data-testid="toggle-unattributed" /> system prompt &amp; tools as a tile
          </label>
        ) : null}
        <ul className="legend" aria-label="Legend">
          {[...SEGMENT_CLASSES, 'unattributed' as const].map((k) =>
            k === 'unattributed' ? (
              c.unattributedTokens > 0 && showUnattributed ? <LegendItem key={k} k={k} /> : null
            ) : present.has(k) || (k === 'live' && !deadOnly) ? (
              <LegendItem key={k} k={k} />
            ) : null,
          )}
        </ul>
      </div>
  );
}

/** A damaged or cut-off file says so before anything is read from it. */
function Problems({ view }: { view: SnapshotView }) {
  const shown = view.snapshot.problems.filter((p) => p.severity !== 'info' && ['torn_last_line', 'invalid_json', 'invalid_record', 'subagent_unreadable', 'dangling_parent'].includes(p.code));
  if (shown.length === 0) return null;
  const torn = shown.find((p) => p.code === 'torn_last_line');
  const invalid = shown.filter((p) => p.code === 'invalid_json' || p.code === 'invalid_record');
  return (
    <div className="problems warn" role="note" data-testid="problems">
      ⚠{' '}
      {torn ? `The file ends in an incomplete line (line ${torn.line ?? '?'}): it was cut off, or the session is still being written. ` : ''}
      {invalid.length ? `${invalid.length} line(s) could not be read (first at line ${invalid[0]?.line ?? '?'}) and were skipped. ` : ''}
      {shown.filter((p) => !['torn_last_line', 'invalid_json', 'invalid_record'].includes(p.code)).map((p) => visibleText(p.message)).join(' ')}
      <span className="dim"> Figures cover what could be read.</span>
    </div>
  );
}

/** The model the next request is assumed to use: only its own reasoning is sent. */
function ModelPicker({ view }: { view: SnapshotView }) {
  const request = view.snapshot.request;
  const model = useApp((s) => s.model);
  const setModel = useApp((s) => s.setModel);
  if (!request) return null;
  return (
    <div className="repo-line">
      <label className="check" title={`Only this model's own reasoning is sent. ${request.modelBasis}`}>
        next request on{' '}
        <select value={model ?? ''} onChange={(e) => setModel(e.target.value === '' ? null : e.target.value)} data-testid="request-model">
          <option value="">{model ? 'as the client would' : `${visibleText(request.model ?? 'unknown')} (as the client would)`}</option>
          {[...new Set([...request.models, ...(request.model ? [request.model] : [])])].map((m) => (
            <option key={m} value={m}>
              {visibleText(m)}
            </option>
          ))}
        </select>
      </label>
      <span className="dim small wrap" data-testid="model-basis">
        {model ? 'chosen by you' : `assumed: ${visibleText(request.modelBasis)}`}
      </span>
    </div>
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
    <div className={`repo-line cwd-line${missing ? ' missing' : ''}`} data-testid="cwd-line">
      {/* The whole path, wrapped anywhere (a Windows path has no spaces to break at): cut, it hides which folder it is. */}
      <span className="dim">working directory</span> <code>{visibleText(repoNote)}</code>
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

/** Subagents have windows of their own: linked here, opened like sessions. */
function Subagents({ snapshot }: { snapshot: ClassifiedSnapshot }) {
  const openSubagent = useApp((s) => s.openSubagent);
  if (snapshot.subagents.length === 0) return null;
  return (
    <div className="repo-line" data-testid="subagents">
      <span className="dim">subagent windows</span>
      {snapshot.subagents.map((a) => (
        <button key={a.path} type="button" className="link" onClick={() => void openSubagent(a.path, a.description ?? a.agentType ?? a.agentId)} title={visibleText(a.path)}>
          {visibleText(a.description ?? a.agentType ?? a.agentId)} ({humanTokens(a.reportedTokens ?? a.estimatedTokens)})
        </button>
      ))}
    </div>
  );
}
