import { create } from 'zustand';
import type { CompactionFindResult, CompactionsView, GlassboxApi, IpcError } from '@glassbox/contract';

/** Which compaction's x-ray is open: its thread (null: the session; else a subagent's id) and its 1-based index. */
interface OpenCompaction {
  agentId: string | null;
  index: number;
}

/** An item of a compacted window to show in the conversation before that compaction. */
interface CompactedTarget extends OpenCompaction {
  segmentId: string;
  uuid: string;
  line: number;
}

interface CompactionState {
  path: string | null;
  view: CompactionsView | null;
  loading: boolean;
  error: IpcError | null;
  open: OpenCompaction | null;
  /**
   * The compacted item asked for ("jump to it"): the x-ray's own reading of the window before the
   * compaction scrolls to it; a conversation view that can show compacted parts may follow it too.
   */
  target: CompactedTarget | null;
  search: CompactionFindResult | null;
  searching: boolean;
  load(api: GlassboxApi, path: string): Promise<void>;
  openXray(open: OpenCompaction): void;
  close(): void;
  jumpTo(target: CompactedTarget): void;
  find(api: GlassboxApi, query: string): Promise<void>;
}

let seq = 0;

/** The compaction x-ray of the open session: loaded once per session, opened from the chart's markers. */
export const useCompactions = create<CompactionState>((set, get) => ({
  path: null,
  view: null,
  loading: false,
  error: null,
  open: null,
  target: null,
  search: null,
  searching: false,

  async load(api, path) {
    if (get().path === path && (get().view || get().loading)) return;
    const mine = ++seq;
    set({ path, view: null, loading: true, error: null, open: null, target: null, search: null });
    const r = await api.invoke('session:compactions', { path });
    if (mine !== seq) return;
    set(r.ok ? { view: r.value, loading: false } : { error: r.error, loading: false });
  },
  openXray(open) {
    set({ open, target: null });
  },
  close() {
    set({ open: null, target: null });
  },
  jumpTo(target) {
    set({ open: { agentId: target.agentId, index: target.index }, target });
  },
  async find(api, query) {
    const path = get().path;
    if (!path || query.trim().length === 0) return set({ search: null });
    set({ searching: true });
    const r = await api.invoke('compaction:find', { path, query });
    set({ search: r.ok ? r.value : null, searching: false, ...(r.ok ? {} : { error: r.error }) });
  },
}));
