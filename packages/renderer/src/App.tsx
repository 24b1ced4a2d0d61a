import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { visibleText } from '@glassbox/core';
import { SessionBrowser } from './components/SessionBrowser';
import { AutoKeepToggle, RetentionWarning } from './components/retention/AutoKeepToggle';
import { WindowView } from './components/WindowView';
import { Inspector } from './components/Inspector';
import { ShortcutSheet } from './components/ShortcutSheet';
import { ForkWizard } from './components/ForkWizard';
import { ProxyPanel } from './components/ProxyPanel';
import { CostReports } from './components/CostReports';
import { useApp } from './store';
import { sessionTitle } from './labels';

export function App() {
  const view = useApp((s) => s.view);
  const wizardOpen = useApp((s) => s.wizardOpen);
  const notice = useApp((s) => s.notice);
  const notify = useApp((s) => s.notify);
  const [dragging, setDragging] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const st = useApp.getState();
    void st.loadSessions();
    void st.loadLayout();
    const offProgress = st.api.on('index:progress', (p) => {
      useApp.getState().applyProgress(p);
      if (p.phase === 'done') void useApp.getState().loadSessions();
    });
    const offChanged = st.api.on('session:changed', (c) => useApp.getState().applyChange(c));
    // The host's state, first on every event stream (browser mode, also after a reconnect), and asked for
    // once now that the listeners are in place (the desktop app's events have no stream to open).
    const offSync = st.api.on('host:sync', (s) => useApp.getState().applySync(s));
    void st.api.invoke('host:sync', {}).then((r) => r.ok && useApp.getState().applySync(r.value));
    // Menu items of the desktop app (never sent in browser mode).
    const offCommand = st.api.on('app:command', (c) => {
      const app = useApp.getState();
      if (c.command === 'open-path' && c.path) void app.openFile({ path: c.path });
      else if (c.command === 'fork') app.setWizardOpen(true);
      else if (c.command === 'refresh') void app.api.invoke('sessions:refresh', {});
      else if (c.command === 'search') document.querySelector<HTMLInputElement>('[data-testid=search]')?.focus();
    });
    const onKey = (e: KeyboardEvent) => {
      const tag = (e.target as HTMLElement).tagName;
      if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag)) return;
      if ((e.key === 'f' || e.key === 'F') && !e.metaKey && !e.ctrlKey && !e.altKey) {
        e.preventDefault();
        useApp.getState().setWizardOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      offProgress();
      offChanged();
      offSync();
      offCommand();
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  // A file dropped anywhere opens it: by path in Electron, by its bytes in a browser. Nothing is written.
  useEffect(() => {
    let depth = 0;
    const over = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    };
    const enter = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      depth++;
      setDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) void openDropped(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  const title = view?.snapshot.session.title;
  const project = view?.snapshot.session.cwd?.split(/[\\/]/).filter(Boolean).slice(-2).join('/');
  const trail = useApp((s) => s.trail);
  const openedAs = useApp((s) => s.openedAs);
  const inspectorOpen = useApp((s) => s.inspectorOpen);
  const selectedSegment = useApp((s) => s.selectedSegmentId);
  const inspectorWidth = useApp((s) => s.inspectorWidth);
  const sidebarWidth = useApp((s) => s.sidebarWidth);
  // Until a session is open the inspector has nothing to say: the centre takes its column.
  const noSession = useApp((s) => s.selectedPath === null);
  const setInspector = useApp((s) => s.setInspector);
  const [proxyOpen, setProxyOpen] = useState(false);
  const [costsOpen, setCostsOpen] = useState(false);
  return (
    <div className="app" style={{ '--insp-w': `${inspectorWidth}px`, ...(sidebarWidth === null ? {} : { '--side-w': `${sidebarWidth}px` }) } as CSSProperties}>
      <a className="skip-link" href="#main" onClick={(e) => {
        e.preventDefault();
        const target = document.querySelector<HTMLElement>('[data-testid=treemap] [role=listbox]') ?? document.querySelector<HTMLElement>('[data-testid=session-list]');
        target?.focus();
      }}>
        Skip to the treemap
      </a>
      <header className="topbar" inert={wizardOpen}>
        <h1 className="brand">
          <span className="logo" aria-hidden="true" />
          Glassbox
        </h1>
        <div className="crumb" title={view ? visibleText(view.snapshot.session.path) : undefined}>
          {view ? (
            <nav aria-label="Breadcrumb" className="crumb-nav">
              <span className="dim">{visibleText(project ?? 'session')}</span>
              <span className="dim"> / </span>
              {trail.map((t, i) => (
                <span key={t.path}>
                  <button type="button" className="link" onClick={() => void useApp.getState().openSession(t.path, { trail: trail.slice(0, i), as: null })} title={`Back to ${visibleText(t.path)}`} data-testid="crumb-back">
                    {sessionTitle(t.title, {})}
                  </button>
                  <span className="dim"> › </span>
                </span>
              ))}
              <span aria-current="page">{openedAs ? `subagent: ${visibleText(openedAs)}` : sessionTitle(title, { project: project ?? null, lastActivity: null })}</span>
              {view.external ? <span className="tag">opened file</span> : null}
            </nav>
          ) : null}
        </div>
        <div className="actions">
          <AutoKeepToggle />
          <button type="button" onClick={() => fileRef.current?.click()}>
            Open file…
          </button>
          <button type="button" className="primary" disabled={forkBlocked(view) !== null} onClick={() => useApp.getState().setWizardOpen(true)} title={forkBlocked(view) ?? 'Fork a cleaned session (F)'} data-testid="open-fork">
            Fork…
          </button>
          <button type="button" aria-pressed={costsOpen} onClick={() => setCostsOpen(!costsOpen)} data-testid="toggle-cost-reports" title="Cost of every session by day, month, project, session or model">
            Costs
          </button>
          <button type="button" aria-pressed={proxyOpen} onClick={() => setProxyOpen(!proxyOpen)} data-testid="toggle-proxy" title="What glassbox proxy removed from live conversations">
            Proxy
          </button>
          <button type="button" aria-pressed={inspectorOpen} onClick={() => setInspector(!inspectorOpen)} data-testid="toggle-inspector" title="Show or hide the segment inspector">
            {inspectorOpen ? 'Hide inspector' : 'Inspector'}
          </button>
          <input
            ref={fileRef}
            type="file"
            accept={SESSION_FILE_ENDINGS.join(',')}
            hidden
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void openDropped(f);
              e.target.value = '';
            }}
          />
        </div>
      </header>
      <RetentionWarning />
      {notice ? (
        <div className={`notice ${notice.kind}`} role="alert" data-testid="notice">
          <div>
            <strong>{visibleText(notice.message)}</strong>
            {notice.hint ? <span className="dim"> {visibleText(notice.hint)}</span> : null}
          </div>
          <button type="button" className="close" onClick={() => notify(null)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ) : null}
      {proxyOpen ? <ProxyPanel onClose={() => setProxyOpen(false)} /> : null}
      {costsOpen ? <CostReports onClose={() => setCostsOpen(false)} /> : null}
      <div className={`columns${inspectorOpen && !noSession ? '' : ' no-inspector'}${selectedSegment ? '' : ' nothing-selected'}`}>
        <SessionBrowser inert={wizardOpen} />
        <div className="centre" inert={wizardOpen}>
          <WindowView />
        </div>
        {inspectorOpen && !noSession ? <Inspector inert={wizardOpen} /> : null}
      </div>
      {wizardOpen ? <ForkWizard /> : null}
      <ShortcutSheet />
      {dragging ? (
        <div className="drop-overlay" aria-hidden="true">
          <div>Drop a session transcript ({SESSION_FILE_ENDINGS.join(' or ')}) to inspect it — nothing is written</div>
        </div>
      ) : null}
    </div>
  );
}

/**
 * What a dropped or picked file may end with to be worth sending to the host, which decides by each
 * agent's own rule (JSONL logs; Gemini CLI's JSON documents). The renderer holds no registry.
 */
const SESSION_FILE_ENDINGS = ['.jsonl', '.json'];

async function openDropped(file: File): Promise<void> {
  const st = useApp.getState();
  if (!SESSION_FILE_ENDINGS.some((e) => file.name.toLowerCase().endsWith(e))) {
    st.notify({ kind: 'error', message: `${file.name} is not a session transcript: Glassbox opens ${SESSION_FILE_ENDINGS.join(' and ')} files. Nothing was written.`, hint: 'The session list shows the folders each agent keeps its sessions in.' });
    return;
  }
  const path = st.api.pathForFile?.(file) ?? null;
  if (path) return st.openFile({ path });
  return st.openFile({ name: file.name, text: await file.text() });
}

/** Why "Fork…" is off for this view, in words (null: it is on). */
function forkBlocked(view: ReturnType<typeof useApp.getState>['view']): string | null {
  if (!view) return 'Open a session first';
  if (view.snapshot.session.path.startsWith('upload:') || view.external) return 'A dropped file is read only: Glassbox writes a fork only beside a session in its agent’s folder';
  if (view.keeping?.kept?.gone) return 'This is the archive’s copy of a session whose original is gone: restore it first, then fork it';
  return null;
}
