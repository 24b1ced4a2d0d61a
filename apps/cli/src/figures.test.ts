import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadShare } from '@glassbox/core';
import { createHost, type EngineHost } from '@glassbox/host';
import { okValue } from '@glassbox/test-support/host/seed';
import type { ForkPreview, SessionRow, SessionsListResult, SnapshotView } from '@glassbox/contract';
import { runCli } from './commands/cli-test-io';

const CORPUS = resolve(import.meta.dirname, '../../../fixtures/corpus');
const GENERATED = join(CORPUS, 'generated');
const SCENARIOS = readdirSync(GENERATED).filter((n) => /^\d\d-/.test(n));

/** Every Claude Code transcript of the corpus in one config folder; each generated project mapped to its project-after/. */
function seed(): { dir: string; env: NodeJS.ProcessEnv; mappings: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-figures-'));
  const projects = join(dir, 'claude', 'projects');
  const mappings: Record<string, string> = {};
  for (const name of SCENARIOS) {
    const m = JSON.parse(readFileSync(join(GENERATED, name, 'manifest.json'), 'utf8')) as { project_slug: string; cwd: string };
    cpSync(join(GENERATED, name, 'claude-project'), join(projects, m.project_slug), { recursive: true });
    mappings[m.cwd] = join(GENERATED, name, 'project-after');
  }
  // The public transcripts, flat in one project folder (Codex rollouts are not Claude Code's).
  const pub = join(projects, '-public');
  mkdirSync(pub, { recursive: true });
  const walk = (from: string, prefix: string): void => {
    for (const n of readdirSync(from)) {
      const p = join(from, n);
      if (statSync(p).isDirectory()) walk(p, `${prefix}${n}-`);
      else if (n.endsWith('.jsonl') && !n.startsWith('rollout-')) cpSync(p, join(pub, n === 'transcript.jsonl' ? `${prefix}${n}` : n));
    }
  };
  walk(join(CORPUS, 'public'), '');
  return { dir, env: { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), GEMINI_CLI_HOME: join(dir, 'gemini'), GLASSBOX_DATA_DIR: join(dir, 'data') }, mappings };
}

/** Actions the wizard's preview plans, by scenario, for the sessions it plans any for (the rest plan none). */
const PLANNED: Record<string, number[]> = { '01-superseded-reads': [9], '03-large-outputs': [2], '08-duplicates-and-ranges': [1], '19-newest-client-window': [4], public: [11] };

describe('one set of figures: list = header = wizard = inspect, for every fixture', () => {
  let s: ReturnType<typeof seed>;
  let host: EngineHost;
  let rows: SessionRow[];

  beforeAll(async () => {
    s = seed();
    host = createHost(s.env, { watch: false, samplesDir: null }, () => {}, { workers: 0 });
    await host.start();
    // Mapped from the window, as a user would: saved in the index, applied to the list and the CLI.
    for (const [cwd, folder] of Object.entries(s.mappings)) expect((await host.handle('repo:map', { cwd, folder })).ok).toBe(true);
    await host.handle('sessions:refresh', {});
    host.close();
    host = createHost(s.env, { watch: false, samplesDir: null }, () => {}, { workers: 0 });
    await host.start();
    rows = (await okValue<SessionsListResult>(host.handle('sessions:list', {}))).sessions;
  }, 120_000);
  afterAll(() => {
    host?.close();
    rmSync(s.dir, { recursive: true, force: true });
  });

  it('lists every transcript of the corpus', () => {
    expect(rows.length).toBe(SCENARIOS.length + 1 + 6);
  });

  for (const name of [...SCENARIOS, 'public']) {
    it(`${name}`, async () => {
      const mine = rows.filter((r) => (name === 'public' ? r.projectDir === '-public' : r.cwd?.includes(`/${name}/`)));
      expect(mine.length).toBeGreaterThan(0);
      const planned: number[] = [];
      for (const row of mine) {
        const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path: row.path }));
        const header = view.figures;
        // The list.
        expect(row.reclaimableTokens, row.path).toBe(header.reclaimableTokens);
        expect(row.reclaimableShare, row.path).toBe(header.deadShare);
        // The header's own figures are the snapshot's.
        expect(header.windowTokens).toBe(view.snapshot.context.reportedTokens ?? view.snapshot.context.estimatedTokens);
        expect(header.reclaimableTokens).toBe(Math.max(0, view.snapshot.reclaimable.netTokens));
        // The wizard: its first step shows the snapshot's classes; its preview plans the same removals.
        const preview = await okValue<ForkPreview>(host.handle('fork:preview', { path: row.path, classes: ['gone', 'stale-drift', 'stale-superseded', 'duplicate'] }));
        expect(preview.tokensBefore).toBe(header.windowTokens);
        planned.push(preview.actions);
        if (preview.actions > 0) expect(preview.netReclaimed, row.path).toBe(header.reclaimableTokens);
        else expect(preview.excluded.filter((e) => e.reason === 'below-minimum-savings' || e.reason === 'protected-tail' || e.reason === 'not-worth-a-tombstone').length + (header.reclaimableTokens === 0 ? 1 : 0)).toBeGreaterThan(0);
        // inspect, with the mapping saved in the index (no --repo).
        const r = await runCli(['inspect', row.path, '--json'], s.env);
        expect(r.code).toBe(0);
        const doc = JSON.parse(r.out);
        const window = doc.context.reportedTokens ?? doc.context.estimatedTokens;
        expect(window).toBe(header.windowTokens);
        expect(Math.max(0, doc.reclaimable.netTokens)).toBe(header.reclaimableTokens);
        expect(deadShare(Math.max(0, doc.reclaimable.netTokens), window)).toBe(header.deadShare);
        expect(doc.session.repoRoot).toBe(view.snapshot.session.repoRoot);
      }
      // Which sessions the wizard plans removals for, and how many: both branches above are met.
      expect(planned.filter((n) => n > 0)).toEqual(PLANNED[name] ?? []);
    });
  }
});
