import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-test-io';
import { defaultAgents } from '@glassbox/agents';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

/** Whether user nobody can read a file (every folder above it must let them through). */
function readableByNobody(path: string): boolean {
  const r = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(path)}, require('fs').constants.R_OK)`], {
    uid: 65534,
    gid: 65534,
  });
  return r.status === 0;
}

const REPO = resolve(import.meta.dirname, '../../../..');
const CORPUS = join(REPO, 'fixtures/corpus/generated');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A Claude config folder holding a writable copy of one corpus session's projects folder. */
function install(name: string, mode = 0o755): { env: NodeJS.ProcessEnv; projectDir: string; sessionId: string; repo: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'glassbox-clean-'));
  roots.push(root);
  const projectDir = join(root, 'config', 'projects', `-tmp-${name}`);
  mkdirSync(join(root, 'config', 'projects'), { recursive: true });
  cpSync(join(CORPUS, name, 'claude-project'), projectDir, { recursive: true });
  const fix = (p: string): void => {
    const dir = statSync(p).isDirectory();
    chmodSync(p, dir ? mode : 0o644);
    if (dir) for (const n of readdirSync(p)) fix(join(p, n));
  };
  fix(projectDir);
  const manifest = JSON.parse(readFileSync(join(CORPUS, name, 'manifest.json'), 'utf8')) as { session_ids: string[] };
  return {
    env: { CLAUDE_CONFIG_DIR: join(root, 'config'), GLASSBOX_DATA_DIR: join(root, 'data') },
    projectDir,
    sessionId: manifest.session_ids[0] as string,
    repo: join(CORPUS, name, 'project-after'),
    root,
  };
}

describe('glassbox clean', () => {
  it('dry run by default: says what would go, why, what it saves, and writes nothing', async () => {
    const s = install('03-large-outputs');
    const before = readdirSync(s.projectDir).sort();
    const r = await runCli(['clean', s.sessionId, '--repo', s.repo, '--json'], s.env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.mode).toBe('dry-run');
    expect(doc.plan.actions.length).toBeGreaterThan(0);
    for (const a of doc.plan.actions) {
      expect(a.reason.length).toBeGreaterThan(0);
      expect(a.tokensFreed).toBeGreaterThan(a.tombstoneTokens);
      expect(a.tombstone).toMatch(/^\[glassbox: removed .*sha256 [0-9a-f]{12}\]$/);
    }
    expect(doc.plan.totals.netReclaimed).toBe(doc.plan.totals.reclaimable - doc.plan.totals.tombstoneTokens);
    expect(doc.validation.ok).toBe(true);
    expect(readdirSync(s.projectDir).sort()).toEqual(before);
    const text = await runCli(['clean', s.sessionId, '--repo', s.repo], s.env);
    expect(text.out).toContain('dry run');
    expect(text.out).toContain('net reclaimed');
    expect(text.out).toContain('Nothing was written');
  });

  it('--fork writes a sibling, prints the resume command; verify, show and undo follow it', async () => {
    const s = install('01-superseded-reads');
    const original = readFileSync(join(s.projectDir, `${s.sessionId}.jsonl`));
    const r = await runCli(['clean', s.sessionId, '--repo', s.repo, '--fork', '--json'], s.env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.status).toBe('written');
    expect(doc.forkPath).toBe(join(s.projectDir, `${doc.forkId}.jsonl`));
    // The recorded cwd is not on this machine (unless a harness run made it): the command runs in the mapped folder and names the file.
    const cwd = '/tmp/cc-harness-work/01-superseded-reads/project';
    expect(doc.resumeCommand).toBe(existsSync(cwd) ? `cd ${cwd} && claude --resume ${doc.forkId}` : `cd ${s.repo} && claude --resume ${doc.forkPath}`);
    expect(doc.original.sha256Before).toBe(doc.original.sha256After);
    expect(readFileSync(join(s.projectDir, `${s.sessionId}.jsonl`)).equals(original)).toBe(true);

    // The fork knows it is one: inspect shows its original, the window it will send, and its tombstones as such.
    const fork = JSON.parse((await runCli(['inspect', doc.forkPath, '--repo', s.repo, '--json'], s.env)).out);
    expect(fork.lineage.forkOf).toMatchObject({ sessionId: s.sessionId, kind: 'clean' });
    expect(fork.lineage.willSend.estimatedTokens).toBe(fork.lineage.willSend.originalReportedTokens - doc.plan.totals.netReclaimed);
    expect(fork.segments.filter((x: { class: string }) => x.class === 'tombstone').length).toBe(doc.applied.length);
    expect(fork.reclaimable.tokens).toBe(0);
    const orig = JSON.parse((await runCli(['inspect', s.sessionId, '--repo', s.repo, '--json'], s.env)).out);
    expect(orig.lineage.forks.map((f: { sessionId: string }) => f.sessionId)).toEqual([doc.forkId]);
    expect((await runCli(['inspect', doc.forkPath, '--repo', s.repo], s.env)).out).toMatch(/ {2}fork of .*written/);

    const v = await runCli(['verify', doc.forkId], s.env);
    expect(v.code).toBe(0);
    expect(v.out).toContain('byte-identical to what was written');
    expect(v.out).not.toContain('✗');

    const seg = doc.applied[0].segmentId as string;
    const shown = await runCli(['show', doc.forkId, '--segment', seg], s.env);
    expect(shown.code).toBe(0);
    const rec = JSON.parse(original.toString('utf8').split('\n')[doc.applied[0].line - 1] as string);
    const block = rec.message.content[doc.applied[0].blockIndex];
    expect(shown.out).toBe(doc.applied[0].target === 'tool-input' ? Object.values(block.input).find((x) => typeof x === 'string' && shown.out === x) : block.content);

    const w = await runCli(['write-original', doc.forkId, '--json'], s.env);
    expect(w.code).toBe(0);
    const written = JSON.parse(w.out);
    expect(readFileSync(written.path, 'utf8')).toBe(original.toString('utf8').split(`"sessionId":"${s.sessionId}"`).join(`"sessionId":"${written.sessionId}"`));
    expect(readdirSync(s.projectDir).filter((f) => f.endsWith('.jsonl')).length).toBe(3);
  });

  it('undo takes the fork off the disk (the folder as before it), restore brings it back, a second undo says it is gone', async () => {
    const s = install('03-large-outputs');
    const before = readdirSync(s.projectDir, { recursive: true }).map(String).sort();
    const doc = JSON.parse((await runCli(['clean', s.sessionId, '--repo', s.repo, '--fork', '--json', '--min-savings', '0'], s.env)).out);
    expect(doc.status).toBe('written');
    const forkBytes = readFileSync(doc.forkPath);
    const u = await runCli(['undo', doc.forkId], s.env);
    expect(u.code).toBe(0);
    expect(u.out).toContain(`Fork ${doc.forkId} undone`);
    expect(u.out).toContain(`glassbox restore ${doc.forkId}`);
    expect(readdirSync(s.projectDir, { recursive: true }).map(String).sort()).toEqual(before);
    const again = await runCli(['undo', doc.forkId], s.env);
    expect(again.code).not.toBe(0);
    expect(again.err).toMatch(/not at .* any more/);
    const back = await runCli(['restore', doc.forkId], s.env);
    expect(back.code).toBe(0);
    expect(readFileSync(doc.forkPath).equals(forkBytes)).toBe(true);
  });

  it('accounts for every dead segment and states the prompt-cache bill, as of --at', async () => {
    const s = install('02-gone-drift-errors');
    const r = await runCli(['clean', s.sessionId, '--repo', s.repo, '--json', '--at', '2026-11-30T07:04:00Z', '--min-savings', '0'], s.env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    // Drift is proven on the fork path too; too small for a tombstone, it is listed with that reason.
    expect(doc.plan.excluded.find((e: { class: string }) => e.class === 'stale-drift')).toMatchObject({ reason: 'not-worth-a-tombstone', source: 'src/config.json' });
    expect(doc.plan.exclusions).toEqual([{ reason: 'not-worth-a-tombstone', segments: 3, tokens: 77 }]);
    expect(Object.keys(doc.economics)).toEqual(['ttl', 'lastResponseAt', 'cacheWarmUntil', 'prefixTokens', 'original', 'fork', 'breakEvenRequests', 'advice']);
    expect(doc.economics).toMatchObject({ ttl: '5m', lastResponseAt: '2026-11-30T07:02:58.618Z', cacheWarmUntil: '2026-11-30T07:07:58.618Z' });
    expect(Object.keys(doc.economics.original)).toEqual(['nextRequestUsd', 'perRequestUsd']);
    expect(doc.economics.fork.nextRequestUsd).toBeGreaterThan(doc.economics.original.nextRequestUsd);
    expect(doc.economics.breakEvenRequests).toBeGreaterThan(1);
    expect(doc.economics.advice).toMatch(/^cache warm until 07:07 UTC — fork after that and it costs nothing extra/);
    const cold = JSON.parse((await runCli(['clean', s.sessionId, '--repo', s.repo, '--json', '--at', '2026-11-30T10:08:00Z', '--min-savings', '0'], s.env)).out);
    expect(cold.economics.cacheWarmUntil).toBeNull();
    expect(cold.economics.breakEvenRequests).toBe(1);
    expect(cold.economics.advice).toMatch(/^the cache expired 3 h ago: forking now is cheaper from the first request/);
    const text = await runCli(['clean', s.sessionId, '--repo', s.repo, '--at', '2026-11-30T07:04:00Z', '--min-savings', '0'], s.env);
    expect(text.out).toMatch(/Kept although dead \(3 segments\), by reason\n {2}not-worth-a-tombstone +3 seg +77 tokens/);
    expect(text.out).toContain('prices: Claude Opus 4.8 list prices as of 2026-12-02');
  });

  it('--horizon plans fewer evictions over a short horizon while the cache is warm', async () => {
    const s = install('01-superseded-reads');
    const all = JSON.parse((await runCli(['clean', s.sessionId, '--repo', s.repo, '--json', '--at', '2026-11-30T07:03:00Z'], s.env)).out);
    const one = JSON.parse((await runCli(['clean', s.sessionId, '--repo', s.repo, '--json', '--at', '2026-11-30T07:03:00Z', '--horizon', '1'], s.env)).out);
    expect(all.plan.actions.length).toBeGreaterThan(0);
    expect(one.plan.actions).toEqual([]);
    expect(one.plan.excluded.filter((e: { reason: string }) => e.reason === 'horizon-cost').length).toBe(all.plan.actions.length);
    expect(one.plan.reasons.map((r: { code: string }) => r.code)).toContain('horizon_cheaper_to_wait');
  });

  it('uses a folder mapping saved in the index when --repo is not given', async () => {
    const s = install('03-large-outputs');
    const { openIndex } = await import('@glassbox/store');
    const index = openIndex({ agents: TEST_AGENTS, dataDir: join(s.root, 'data'), roots: [], workers: 0 });
    index.saveMapping('/tmp/cc-harness-work/03-large-outputs/project', s.repo);
    await index.close();
    const doc = JSON.parse((await runCli(['inspect', s.sessionId, '--json'], s.env)).out);
    expect(doc.session.repoRoot).toBe(s.repo);
    expect(doc.segments.filter((x: { class: string }) => x.class === 'gone').length).toBe(2);
    const clean = JSON.parse((await runCli(['clean', s.sessionId, '--json'], s.env)).out);
    expect(clean.plan.actions.map((a: { class: string }) => a.class)).toEqual(['gone', 'gone']);
  });

  it('exit 2 for bad input, with a message and no stack trace', async () => {
    const s = install('02-gone-drift-errors');
    const bad = await runCli(['clean', s.sessionId, '--classes', 'gone,bogus'], s.env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown class "bogus"');
    expect((await runCli(['clean', 'nope-no-such-session'], s.env)).code).toBe(2);
    const v = await runCli(['verify', '11111111-2222-3333-4444-555555555555'], s.env);
    expect(v.code).toBe(2);
    expect(v.err).toContain('no fork 11111111-2222-3333-4444-555555555555 in the archive');
    expect((await runCli(['show', 'x'], s.env)).code).toBe(2);
    for (const args of [['--at', 'yesterday'], ['--at', '2026-13-45T99:00:00Z'], ['--horizon', '0'], ['--horizon', '2.5'], ['--horizon', 'ten']]) {
      const r = await runCli(['clean', s.sessionId, ...args], s.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain(args[0]);
    }
    expect((await runCli(['inspect', s.sessionId, '--at', 'noon'], s.env)).code).toBe(2);
  });

  it('says why when there is nothing worth removing, and writes nothing even with --fork', async () => {
    const s = install('05-autocompact');
    const before = readdirSync(s.projectDir).sort();
    const r = await runCli(['clean', s.sessionId, '--repo', s.repo, '--fork'], s.env);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Nothing to remove[\s\S]*\((nothing_provable|below_minimum_savings|all_protected)\)/);
    expect(r.out).toContain('No fork was written');
    expect(readdirSync(s.projectDir).sort()).toEqual(before);
  });

  it('a read-only project folder: exit 1, a clear message, no partial file', (ctx) => {
    // Root ignores permission bits, so as root the CLI runs as `nobody`, for whom the folder is read-only.
    // That needs a checkout `nobody` can read (a CI clone may sit in a private folder).
    if (process.getuid?.() === 0 && !readableByNobody(join(REPO, 'apps/cli/bin/glassbox.mjs'))) {
      ctx.skip('running as root in a checkout that user nobody cannot read: a read-only folder cannot be simulated');
      return;
    }
    const s = install('01-superseded-reads', 0o555);
    const data = join(s.root, 'data');
    mkdirSync(data, { mode: 0o777 });
    chmodSync(data, 0o777);
    chmodSync(s.root, 0o755);
    const asRoot = process.getuid?.() === 0;
    const r = spawnSync(process.execPath, [join(REPO, 'apps/cli/bin/glassbox.mjs'), 'clean', s.sessionId, '--repo', s.repo, '--fork'], {
      env: { ...process.env, ...s.env, NO_COLOR: '1' },
      encoding: 'utf8',
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot write in .*-tmp-01-superseded-reads \(EACCES.*nothing was written/);
    expect(readdirSync(s.projectDir).filter((f) => !f.startsWith(s.sessionId))).toEqual([]);
    // The manifest is written only once its fork exists: there is none (and maybe no forks/ folder).
    const forks = join(data, 'archive', 'forks');
    expect(existsSync(forks) ? readdirSync(forks) : []).toEqual([]);
  });
});
