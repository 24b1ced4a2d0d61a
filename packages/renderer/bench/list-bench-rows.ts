// N synthetic session rows (titles from a small vocabulary, a few hundred projects, spread over 90
// days) for the session-list benchmark and the grouping tests.
import type { SessionRow } from '@glassbox/contract';
import { rng } from './synthetic';

const WORDS = ['refactor', 'ledger', 'fix', 'flaky', 'test', 'add', 'archive', 'method', 'review', 'source', 'rounding', 'parser', 'docs', 'release', 'migrate', 'alpha', 'cache', 'window'];

export function syntheticRows(n: number): SessionRow[] {
  const r = rng(n);
  const rows: SessionRow[] = [];
  const now = Date.parse('2026-11-30T12:00:00Z');
  for (let i = 0; i < n; i++) {
    const project = `/home/dev/work/project-${Math.floor(r() * Math.max(5, n / 50))}`;
    const title = Array.from({ length: 3 + Math.floor(r() * 6) }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
    const ctx = Math.round(r() * 180_000);
    rows.push({
      id: `0000${i}-aaaa-bbbb-cccc-dddddddddddd`,
      path: `${project.replaceAll('/', '-')}/${i}.jsonl`,
      projectDir: project.replaceAll('/', '-'),
      project: project.split('/').pop() ?? project,
      cwd: project,
      title,
      lastActivity: new Date(now - Math.floor(r() * 90 * 86_400_000)).toISOString(),
      bytes: Math.round(r() * 20_000_000),
      contextTokens: ctx,
      estimatedTokens: ctx,
      reclaimableTokens: Math.round(ctx * r() * 0.5),
      reclaimableShare: r() * 0.5,
      live: false,
      fork: false,
      forkOf: null,
      forks: [],
      subagents: 0,
      problem: null,
      retention: null,
      kept: null,
    } as SessionRow);
  }
  return rows;
}

