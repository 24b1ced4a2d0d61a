// Renders the real Treemap component on synthetic snapshots of N segments and reports, per size, how
// long the d3 layout takes and how long React takes to draw it (commit to the next painted frame).
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { Treemap } from '../src/components/Treemap';
import { layoutTreemap, leavesOf } from '../src/treemap-layout';
import '../src/styles.css';
import { rng, syntheticSnapshot } from './synthetic';
import { d3LayoutTreemap } from './d3-layout';
import { useApp } from '../src/store';

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const spread = (xs: number[]) => ({ median: median(xs), max: Math.max(0, ...xs) });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function run(sizes: number[], runs: number) {
  // Selecting asks the host for the segment's detail: here a stand-in that answers at once.
  useApp.setState({ selectedPath: '/bench', api: { invoke: async () => ({ ok: false, error: { code: 'unavailable', message: 'bench' } }), on: () => () => undefined } as never });
  const root = createRoot(document.getElementById('root') as HTMLElement);
  const results = [];
  for (const n of sizes) {
    const snap = syntheticSnapshot(n);
    // No selection carried over from the previous size (a selected segment that is not drawn on its
    // own makes the treemap lay out a second time to give it a tile).
    useApp.setState({ selectedSegmentId: null, highlightIds: [] });
    const layoutMs: number[] = [];
    let drawn = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      drawn = layoutTreemap(leavesOf(snap, 'class'), { width: 1000, height: 620, zoom: [], groupBy: 'class' }).tiles.length;
      layoutMs.push(performance.now() - t);
    }
    const d3Ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      d3LayoutTreemap(leavesOf(snap, 'class'), { width: 1000, height: 620, zoom: [], groupBy: 'class' });
      d3Ms.push(performance.now() - t);
    }
    const drawMs: number[] = [];
    let tiles = 0;
    // Mounted once so the treemap knows its size (a ResizeObserver tells it), then drawn again from a
    // fresh copy of the snapshot each run: layout, React's commit, the canvas, and the browser's style
    // and layout pass (forced by reading a size), all synchronous, no frame waited for.
    flushSync(() => root.render(<div />));
    await nextFrame();
    flushSync(() => root.render(<Treemap snapshot={{ ...snap, segments: [...snap.segments] }} />));
    for (let f = 0; f < 200 && document.querySelectorAll('.tm-tile').length === 0; f++) await nextFrame();
    for (let i = 0; i < runs; i++) {
      const copy = { ...snap, segments: [...snap.segments] };
      // Paired with the redraw that follows: its layout alone, so draw = redraw − this layout.
      const l0 = performance.now();
      layoutTreemap(leavesOf(copy, 'class'), { width: 1000, height: 620, zoom: [], groupBy: 'class' });
      const pairedLayout = performance.now() - l0;
      await nextFrame();
      const t = performance.now();
      flushSync(() => root.render(<Treemap snapshot={copy} />));
      void (document.querySelector('[data-testid=treemap]') as HTMLElement | null)?.getBoundingClientRect();
      void document.body.offsetHeight;
      drawMs.push(Math.max(0, performance.now() - t - pairedLayout));
      tiles = document.querySelectorAll('.tm-tile').length;
      await nextFrame();
    }
    // Interaction on the last drawing: the pointer over 40 points, then 10 clicks that select a tile.
    const box = document.querySelector<HTMLElement>('[data-testid=treemap]');
    const hoverMs: number[] = [];
    const selectMs: number[] = [];
    if (box) {
      const rect = box.getBoundingClientRect();
      const r = rng(7);
      for (let i = 0; i < 40; i++) {
        const t = performance.now();
        box.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: rect.left + r() * rect.width, clientY: rect.top + r() * rect.height }));
        await nextFrame();
        hoverMs.push(performance.now() - t);
      }
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        box.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: rect.left + r() * rect.width, clientY: rect.top + r() * rect.height }));
        await nextFrame();
        selectMs.push(performance.now() - t);
      }
    }
    // The component lays out inside its render: draw is what it takes beyond the layout.
    results.push({ segments: n, layoutMs: median(layoutMs), d3Ms: median(d3Ms), drawMs: median(drawMs), tiles: drawn, elements: tiles, hover: spread(hoverMs), select: spread(selectMs) });
  }
  root.unmount();
  return results;
}

(window as unknown as { runBench: typeof run }).runBench = run;
