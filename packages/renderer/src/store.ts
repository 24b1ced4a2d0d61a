import { create } from 'zustand';
import type {
  FileOpenArgs,
  GlassboxApi,
  HostSync,
  IndexProgress,
  JobProgress,
  IpcError,
  SampleSession,
  SegmentDetail,
  SessionChanged,
  SessionRow,
  SessionSort,
  SnapshotView,
} from '@glassbox/contract';
import { SIDEBAR_MAX_PX, SIDEBAR_MIN_PX } from '@glassbox/contract';
import { pickTransport } from './api';
import { grewInView, grownPaths, nextRows } from './list-rows';

type GroupBy = 'class' | 'source';
type CentreView = 'treemap' | 'conversation' | 'cost';

interface Notice {
  kind: 'error' | 'info';
  message: string;
  hint?: string;
}

export interface AppState {
  api: GlassboxApi;
  // Session browser
  sessions: SessionRow[];
  roots: string[];
  /** The agents whose folders the host searched, by their clients' names. */
  agents: string[];
  samples: SampleSession[];
  progress: IndexProgress;
  query: string;
  sort: SessionSort;
  listLoaded: boolean;
  /** Sessions listed before the search narrowed them. */
  listTotal: number;
  /** Rows just changed on disk, for a brief highlight. */
  flashed: Record<string, number>;
  /** The host's list version the list (rows and progress) is at: see HostSync. Older answers never overwrite newer ones. */
  listVersion: number;
  /** The jobs the host last said were running (HostSync), for the jobs bar to agree with after a gap in its events. */
  syncedJobs: { jobs: JobProgress[]; seq: number } | null;
  // Window
  selectedPath: string | null;
  view: SnapshotView | null;
  viewLoading: boolean;
  viewError: IpcError | null;
  groupBy: GroupBy;
  zoom: string[];
  withInferred: boolean;
  /** The model of the next request the window is drawn for; null: the one the client would resume on. */
  model: string | null;
  /** Draw the system prompt, tools and memory (reported minus transcript) in the treemap. */
  showUnattributed: boolean;
  /** The treemap shows only dead segments, each sized by what removing it frees. */
  deadOnly: boolean;
  /** Segments marked in the treemap from elsewhere (a turn of the chart, the conversation). */
  highlightIds: string[];
  /** What the centre shows: the treemap, the conversation read in order, or the cost. */
  centreView: CentreView;
  /** The segment the conversation view scrolls to (set by "show in conversation"). */
  conversationTarget: string | null;
  /** The sessions above the open one (a subagent's parent), for the breadcrumb's way back. */
  trail: { path: string; title: string }[];
  /** What the open session is called when it was opened from its parent (a subagent's description). */
  openedAs: string | null;
  /** Group the list by project, or one list sorted as a whole. */
  groupByProject: boolean;
  // Inspector
  inspectorOpen: boolean;
  inspectorWidth: number;
  /** The session list's width as the person dragged it (kept by the host); null: the window's default. */
  sidebarWidth: number | null;
  selectedSegmentId: string | null;
  detail: SegmentDetail | null;
  detailLoading: boolean;
  // Chrome
  wizardOpen: boolean;
  notice: Notice | null;

  loadSessions(): Promise<void>;
  setQuery(q: string): void;
  setSort(s: SessionSort): void;
  openSession(path: string, from?: { trail: { path: string; title: string }[]; as: string | null }): Promise<void>;
  /** Opens a subagent's window from its parent's, keeping the way back. */
  openSubagent(path: string, label: string): Promise<void>;
  reloadView(): Promise<void>;
  setGroupBy(g: GroupBy): void;
  setZoom(z: string[]): void;
  setWithInferred(v: boolean): void;
  setModel(m: string | null): void;
  setShowUnattributed(v: boolean): void;
  setDeadOnly(v: boolean): void;
  selectSegment(id: string | null): Promise<void>;
  openFile(args: FileOpenArgs): Promise<void>;
  applyChange(change: SessionChanged): void;
  /** Index progress as announced; an older one than the list already has is ignored. */
  applyProgress(p: IndexProgress): void;
  /** The host's state after a gap (a new or re-opened event stream, or the window's first look): reloads what it missed. */
  applySync(sync: HostSync): void;
  setWizardOpen(v: boolean): void;
  setHighlight(ids: string[]): void;
  setCentreView(v: CentreView): void;
  /** Shows a segment in the treemap (selected, its group zoomed out) or in the conversation. */
  showSegment(id: string, where: 'treemap' | 'conversation'): void;
  setGroupByProject(v: boolean): void;
  setInspector(open: boolean, width?: number): void;
  /** Sets the session list's width; `save` keeps it for the next start (at the end of a drag, not each move). */
  setSidebarWidth(width: number, save: boolean): void;
  /** Reads the kept layout from the host (once, at start). */
  loadLayout(): Promise<void>;
  notify(n: Notice | null): void;
  mapRepo(cwd: string, folder: string): Promise<boolean>;
}

let listSeq = 0;
/** A burst of file changes (first indexing, a live session streaming) becomes one list reload. */
let listTimer: ReturnType<typeof setTimeout> | undefined;
const LIST_DEBOUNCE_MS = 120;
/**
 * The open view follows its file without a timer: the first change is read at once (a live session
 * is painted as soon as the host has it), and changes that come while that read is under way become
 * one more read after it, so a burst never queues a read per change.
 */
let viewReading = false;
let viewAgain = false;
function reloadViewNow(reload: () => Promise<void>): void {
  if (viewReading) {
    viewAgain = true;
    return;
  }
  viewReading = true;
  void reload().finally(() => {
    viewReading = false;
    if (!viewAgain) return;
    viewAgain = false;
    reloadViewNow(reload);
  });
}
let viewSeq = 0;
let detailSeq = 0;

export const useApp = create<AppState>()((set, get) => ({
  api: pickTransport(),
  sessions: [],
  roots: [],
  agents: [],
  samples: [],
  progress: { phase: 'idle', done: 0, total: 0 },
  query: '',
  sort: 'activity',
  listLoaded: false,
  listTotal: 0,
  flashed: {},
  listVersion: -1,
  syncedJobs: null,
  selectedPath: null,
  view: null,
  viewLoading: false,
  viewError: null,
  groupBy: 'class',
  zoom: [],
  withInferred: false,
  model: null,
  showUnattributed: false,
  deadOnly: false,
  selectedSegmentId: null,
  detail: null,
  detailLoading: false,
  wizardOpen: false,
  notice: null,
  highlightIds: [],
  centreView: 'treemap',
  conversationTarget: null,
  groupByProject: true,
  trail: [],
  openedAs: null,
  inspectorOpen: true,
  inspectorWidth: 360,
  sidebarWidth: null,

  async loadSessions() {
    const seq = ++listSeq;
    const { api, query, sort } = get();
    const r = await api.invoke('sessions:list', { query, sort });
    if (seq !== listSeq) return;
    if (!r.ok) return set({ notice: { kind: 'error', message: r.error.message, ...(r.error.hint ? { hint: r.error.hint } : {}) }, listLoaded: true });
    // A change announced after this answer was made has been applied already: this answer is older, ask again.
    if (r.value.version < get().listVersion) return void get().loadSessions();
    // A list that shows a session bigger than the window had it grew meanwhile, whichever way the news came.
    const grown = get().listLoaded ? grownPaths(get().sessions, r.value.sessions) : [];
    const now = Date.now();
    const flashed = grown.length > 0 ? { ...get().flashed, ...Object.fromEntries(grown.map((p) => [p, now])) } : get().flashed;
    set({ sessions: r.value.sessions, listTotal: r.value.total ?? r.value.sessions.length, roots: r.value.roots, agents: r.value.agents ?? [], samples: r.value.samples, listLoaded: true, listVersion: r.value.version, flashed });
    get().applyProgress(r.value.progress);
  },
  setQuery(q) {
    set({ query: q });
    void get().loadSessions();
  },
  setSort(s) {
    set({ sort: s });
    void get().loadSessions();
  },

  async openSubagent(path, label) {
    const { selectedPath, view, trail, openedAs } = get();
    const here = selectedPath ? [{ path: selectedPath, title: openedAs ?? view?.snapshot.session.title ?? 'session' }] : [];
    await get().openSession(path, { trail: [...trail, ...here], as: label });
  },
  async openSession(path, from) {
    const seq = ++viewSeq;
    set({ trail: from?.trail ?? [], openedAs: from?.as ?? null, selectedPath: path, viewLoading: true, viewError: null, zoom: [], selectedSegmentId: null, detail: null, wizardOpen: false, model: null, highlightIds: [], conversationTarget: null });
    const r = await get().api.invoke('session:snapshot', { path, withInferred: get().withInferred });
    if (seq !== viewSeq) return;
    if (!r.ok) return set({ view: null, viewLoading: false, viewError: r.error });
    set({ view: r.value, viewLoading: false });
  },
  async reloadView() {
    const { selectedPath, api, withInferred, selectedSegmentId, model } = get();
    if (!selectedPath) return;
    const seq = ++viewSeq;
    const r = await api.invoke('session:snapshot', model ? { path: selectedPath, withInferred, model } : { path: selectedPath, withInferred });
    if (seq !== viewSeq) return;
    if (!r.ok) return set({ viewError: r.error });
    const stillThere = selectedSegmentId && r.value.snapshot.segments.some((s) => s.id === selectedSegmentId);
    set({ view: r.value, viewError: null, ...(stillThere ? {} : { selectedSegmentId: null, detail: null }) });
  },
  setGroupBy(g) {
    set({ groupBy: g, zoom: [] });
  },
  setZoom(z) {
    set({ zoom: z });
  },
  setWithInferred(v) {
    set({ withInferred: v });
    void get().reloadView();
  },
  setModel(m) {
    set({ model: m });
    void get().reloadView();
  },

  setShowUnattributed(v) {
    set({ showUnattributed: v, zoom: [] });
  },
  setDeadOnly(v) {
    set({ deadOnly: v, zoom: [] });
  },

  async selectSegment(id) {
    const seq = ++detailSeq;
    const { selectedPath, api } = get();
    if (!id || !selectedPath) return set({ selectedSegmentId: null, detail: null });
    set({ selectedSegmentId: id, detailLoading: true });
    const r = await api.invoke('segment:detail', { path: selectedPath, segmentId: id });
    if (seq !== detailSeq) return;
    if (!r.ok) return set({ detail: null, detailLoading: false, notice: { kind: 'error', message: r.error.message, ...(r.error.hint ? { hint: r.error.hint } : {}) } });
    set({ detail: r.value, detailLoading: false });
  },

  async openFile(args) {
    const r = await get().api.invoke('file:open', args);
    if (!r.ok) {
      set({ notice: { kind: 'error', message: r.error.message, ...(r.error.hint ? { hint: r.error.hint } : {}) } });
      return;
    }
    set({ notice: null });
    await get().openSession(r.value.path);
  },

  applyProgress(p) {
    if ((p.version ?? 0) < (get().progress.version ?? 0)) return;
    set({ progress: p });
  },
  applySync(sync) {
    const { listVersion, selectedPath, sessions } = get();
    get().applyProgress(sync.progress);
    set({ syncedJobs: { jobs: sync.jobs, seq: (get().syncedJobs?.seq ?? 0) + 1 } });
    if (sync.version <= listVersion) return;
    // Something was announced that this window did not hear: the list again, and the open session if its row moved.
    const before = selectedPath ? sessions.find((r) => r.path === selectedPath) : undefined;
    void get()
      .loadSessions()
      .then(() => {
        const now = get();
        if (!now.selectedPath || now.selectedPath !== selectedPath) return;
        const after = now.sessions.find((r) => r.path === selectedPath);
        if (after && (!before || viewFacts(after) !== viewFacts(before))) void now.reloadView();
      });
  },
  applyChange(change) {
    const { sessions, selectedPath } = get();
    if (change.version > get().listVersion) set({ listVersion: change.version });
    const before = sessions.find((s) => s.path === change.path);
    const next = nextRows(sessions, change);
    // Only growth flashes: the first indexing pass reports every file as new.
    set({ sessions: next, ...(grewInView(before, change) ? { flashed: { ...get().flashed, [change.path]: Date.now() } } : {}) });
    // Re-sort and re-filter through the host so the list matches the query.
    clearTimeout(listTimer);
    listTimer = setTimeout(() => void get().loadSessions(), LIST_DEBOUNCE_MS);
    // The open view is read again when the file or what the window shows of it changed; not when the
    // index merely refined its own figures of the row (its summary and analysis stages), which would
    // start a second read of a session still being opened.
    if (change.path === selectedPath && change.row && (change.reason === 'appended' || !before || viewFacts(before) !== viewFacts(change.row))) {
      reloadViewNow(() => get().reloadView());
    }
  },

  setWizardOpen(v) {
    set({ wizardOpen: v && get().view !== null });
  },
  setHighlight(ids) {
    set({ highlightIds: ids });
  },
  setCentreView(v) {
    set({ centreView: v });
  },
  showSegment(id, where) {
    if (where === 'treemap') {
      set({ centreView: 'treemap', zoom: [], highlightIds: [id] });
      void get().selectSegment(id);
    } else set({ centreView: 'conversation', conversationTarget: id });
  },
  setGroupByProject(v) {
    set({ groupByProject: v });
  },
  setInspector(open, width) {
    set({ inspectorOpen: open, ...(width === undefined ? {} : { inspectorWidth: Math.max(260, Math.min(720, Math.round(width))) }) });
  },
  notify(n) {
    set({ notice: n });
  },
  setSidebarWidth(width, save) {
    const w = Math.round(Math.max(SIDEBAR_MIN_PX, Math.min(SIDEBAR_MAX_PX, width)));
    set({ sidebarWidth: w });
    if (save) void get().api.invoke('window:layout', { sidebarWidth: w });
  },
  async loadLayout() {
    const r = await get().api.invoke('window:layout', {});
    // A width dragged before the answer came is the newer one.
    if (r.ok && r.value.sidebarWidth !== null && get().sidebarWidth === null) set({ sidebarWidth: r.value.sidebarWidth });
  },
  async mapRepo(cwd, folder) {
    const r = await get().api.invoke('repo:map', { cwd, folder });
    if (!r.ok) {
      set({ notice: { kind: 'error', message: r.error.message, ...(r.error.hint ? { hint: r.error.hint } : {}) } });
      return false;
    }
    // A mapping that worked clears the banner an earlier failed one left.
    set({ notice: null });
    await get().reloadView();
    void get().loadSessions();
    return true;
  },
}));

/**
 * What of a row the open view depends on: the file (its size) and its keeping and forks. Not the
 * figures the index refines as its stages finish (activity, retention, totals), which change while
 * the file does not.
 */
function viewFacts(row: SessionRow): string {
  return JSON.stringify([row.bytes, row.kept, row.forks, row.forkOf]);
}
