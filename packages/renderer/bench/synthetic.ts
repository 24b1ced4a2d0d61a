// A synthetic snapshot of N segments (log-normal sizes, a few thousand files, every dead class) for the
// renderer benchmarks.
import type { ClassifiedSnapshot, Segment, SegmentClass } from '@glassbox/core';

export function rng(seed: number): () => number {
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
  // One label string per file, as JSON.parse hands out flat strings (not one template string per segment).
  const files = Array.from({ length: Math.max(10, Math.floor(n / 20)) }, (_, i) => JSON.parse(JSON.stringify(`src/module-${i}.ts`)) as string);
  for (let i = 0; i < n; i++) {
    // Log-normal sizes: most segments small, a few large reads and outputs.
    const tokens = Math.max(1, Math.round(Math.exp(4 + 2 * Math.sqrt(-2 * Math.log(r() + 1e-9)) * Math.cos(2 * Math.PI * r()))));
    const cls = classes[Math.floor(r() * classes.length)] as SegmentClass;
    const file = files[Math.floor(r() * files.length)] as string;
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
    context: { reportedTokens: estimated + 15000, estimatedTokens: estimated, unattributedTokens: 15000, calibration: { factor: 1, basis: 'bench' }, compactions: 0, microcompactions: 0, mirrorBytes: 0, lastModel: null, bytesPerToken: 3 },
    segments,
    reclaimable: { tokens: 0, netTokens: 0, tombstoneTokens: 0, byClass: { gone: { tokens: 0, segments: 0 }, 'stale-drift': { tokens: 0, segments: 0 }, 'stale-superseded': { tokens: 0, segments: 0 }, duplicate: { tokens: 0, segments: 0 }, spent: { tokens: 0, segments: 0 }, elided: { tokens: 0, segments: 0 } } },
    turns: [], subagents: [], problems: [], classes: { enabled: [], inferred: ['spent'] }, checkedAt: new Date().toISOString(),
  };
}

