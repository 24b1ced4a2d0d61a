// Renders the real Treemap component on synthetic snapshots of N segments and reports, per size, how
// long the d3 layout takes and how long React takes to draw it (commit to the next painted frame).
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { ClassifiedSnapshot, Segment, SegmentClass } from '@glassbox/core';
import { Treemap } from '../src/components/Treemap';
import { layoutTreemap, leavesOf } from '../src/treemap-layout';
import '../src/styles.css';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function syntheticSnapshot(n: number): ClassifiedSnapshot {
  const r = rng(n);
  const classes: SegmentClass[] = ['live', 'live', 'live', 'live', 'live', 'live', 'stale-superseded', 'duplicate', 'gone', 'stale-drift'];
  const segments: Segment[] = [];
  for (let i = 0; i < n; i++) {
    // Log-normal sizes: most segments small, a few large reads and outputs.
    const tokens = Math.max(1, Math.round(Math.exp(4 + 2 * Math.sqrt(-2 * Math.log(r() + 1e-9)) * Math.cos(2 * Math.PI * r()))));
    const cls = classes[Math.floor(r() * classes.length)] as SegmentClass;
    const file = `src/module-${Math.floor(r() * Math.max(10, n / 20))}.ts`;
    segments.push({
      id: `seg-${i}:0`, kind: 'tool-result', source: { type: 'file', label: file }, tokens, evictableTokens: tokens, bytes: tokens * 4,
      class: cls, uuid: `seg-${i}`, line: i + 1, blockIndex: 0, blockKind: 'tool-result', nodeKind: 'tool-results', turn: Math.floor(i / 50),
      protected: false, preview: '',
    } as Segment);
  }
  const estimated = segments.reduce((a, s) => a + s.tokens, 0);
  return {
    session: { id: `bench-${n}`, path: `/bench/${n}.jsonl`, cwd: '/bench', version: null, gitBranch: null, title: null, agent: 'claude-code', repoRoot: null, repoExists: true },
    leafUuid: null,
    context: { reportedTokens: estimated + 15000, estimatedTokens: estimated, unattributedTokens: 15000, calibration: { factor: 1, basis: 'bench' }, compactions: 0, microcompactions: 0, mirrorBytes: 0, lastModel: null },
    segments,
    reclaimable: { tokens: 0, netTokens: 0, tombstoneTokens: 0, byClass: { gone: { tokens: 0, segments: 0 }, 'stale-drift': { tokens: 0, segments: 0 }, 'stale-superseded': { tokens: 0, segments: 0 }, duplicate: { tokens: 0, segments: 0 }, spent: { tokens: 0, segments: 0 } } },
    turns: [], subagents: [], problems: [], classes: { enabled: [], inferred: ['spent'] }, checkedAt: new Date().toISOString(),
  };
}

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function run(sizes: number[], runs: number) {
  const root = createRoot(document.getElementById('root') as HTMLElement);
  const results = [];
  for (const n of sizes) {
    const snap = syntheticSnapshot(n);
    const layoutMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      layoutTreemap(leavesOf(snap, 'class'), { width: 1000, height: 620, zoom: [], groupBy: 'class' });
      layoutMs.push(performance.now() - t);
    }
    const drawMs: number[] = [];
    let tiles = 0;
    for (let i = 0; i < runs; i++) {
      flushSync(() => root.render(<div />));
      await nextFrame();
      // A fresh copy each time, so memoised layouts are not reused.
      const copy = { ...snap, segments: [...snap.segments] };
      const t = performance.now();
      flushSync(() => root.render(<Treemap snapshot={copy} />));
      // The treemap sizes itself from its box (ResizeObserver), then lays out and draws: wait for tiles.
      for (let f = 0; f < 200 && document.querySelectorAll('.tm-tile').length === 0; f++) await nextFrame();
      await nextFrame();
      drawMs.push(performance.now() - t);
      tiles = document.querySelectorAll('.tm-tile').length;
    }
    // The component lays out inside its render: draw is what it takes beyond the layout.
    results.push({ segments: n, layoutMs: median(layoutMs), drawMs: Math.max(0, median(drawMs) - median(layoutMs)), tiles });
  }
  root.unmount();
  return results;
}

(window as unknown as { runBench: typeof run }).runBench = run;
