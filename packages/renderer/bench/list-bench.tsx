// Renders the real session browser on N synthetic rows (through the real store, with an in-page host
// stand-in that filters and sorts as the host does) and reports: time to the first painted list, the
// duration of each frame while the list scrolls top to bottom, and the time from a keystroke in the
// search box to the filtered list painted.
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { GlassboxApi, SessionRow } from '@glassbox/contract';
import { syntheticRows } from './list-bench-rows';
import { SessionBrowser } from '../src/components/SessionBrowser';
import { useApp } from '../src/store';

/** Answers `sessions:list` as the host does: filter by title/project/cwd, then sort by last activity. */
function inPageHost(rows: SessionRow[]): GlassboxApi {
  // Sorted once: the host's own time is not what this measures.
  const sorted = [...rows].sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? ''));
  const text = sorted.map((s) => `${s.title}\n${s.project}\n${s.cwd}`.toLowerCase());
  return {
    async invoke(channel, args) {
      if (channel !== 'sessions:list') return { ok: false, error: { code: 'unavailable', message: 'bench' } };
      const q = ((args as { query?: string }).query ?? '').trim().toLowerCase();
      const hits = q ? sorted.filter((_, i) => (text[i] as string).includes(q)) : sorted;
      return { ok: true, value: { sessions: hits, total: n(rows), roots: ['/bench'], samples: [], progress: { phase: 'done', done: n(rows), total: n(rows) } } } as never;
    },
    on() {
      return () => undefined;
    },
  };
}
const n = (rows: SessionRow[]) => rows.length;

const frame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)] ?? 0, p95: s[Math.floor(s.length * 0.95)] ?? 0, max: s[s.length - 1] ?? 0, frames: s.length };
};

async function runList(count: number) {
  const rows = syntheticRows(count);
  useApp.setState({ api: inPageHost(rows), sessions: [], listLoaded: false, query: '' });
  const host = document.getElementById('list-root') as HTMLElement;
  const root = createRoot(host);
  flushSync(() => root.render(<SessionBrowser />));
  await frame();

  // First painted list: the host's answer arrives, the rows are drawn.
  let t = performance.now();
  await useApp.getState().loadSessions();
  await frame();
  const firstMs = performance.now() - t;
  const list = host.querySelector<HTMLElement>('[data-testid=session-list]');
  if (!list) throw new Error('no session list');

  // The same run's idle frames: what a frame costs on this machine with nothing to do (its load shows here).
  const idleMs: number[] = [];
  for (let i = 0; i < 60; i++) {
    t = performance.now();
    await frame();
    idleMs.push(performance.now() - t);
  }

  // Scroll top to bottom in steps of ~one screen; each step's time until the next painted frame.
  const scrollMs: number[] = [];
  const step = Math.max(200, list.clientHeight * 0.9);
  for (let y = step; y < list.scrollHeight && scrollMs.length < 400; y += step) {
    t = performance.now();
    list.scrollTop = y;
    list.dispatchEvent(new Event('scroll'));
    await frame();
    scrollMs.push(performance.now() - t);
  }

  // Type a query one key at a time, then clear it: each keystroke until the filtered list is painted.
  const filterMs: number[] = [];
  // Five times over, so that the p95 and the longest are of 30 keystrokes, not 6.
  for (let rep = 0; rep < 5; rep++) {
    for (const q of ['a', 'al', 'alp', 'alph', 'alpha', '']) {
      t = performance.now();
      useApp.setState({ query: q });
      await useApp.getState().loadSessions();
      await frame();
      filterMs.push(performance.now() - t);
    }
  }
  const drawn = host.querySelectorAll('[data-testid=session-row]').length;
  root.unmount();
  return { sessions: count, firstMs, idle: stats(idleMs), scroll: stats(scrollMs), filter: stats(filterMs), rowsInDom: drawn };
}

(window as unknown as { runListBench: typeof runList }).runListBench = runList;
