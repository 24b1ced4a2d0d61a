import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-test-io';

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
    expect(doc.resumeCommand).toBe(`cd /tmp/cc-harness-work/01-superseded-reads/project && claude --resume ${doc.forkId}`);
    expect(doc.original.sha256Before).toBe(doc.original.sha256After);
    expect(readFileSync(join(s.projectDir, `${s.sessionId}.jsonl`)).equals(original)).toBe(true);

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

    const u = await runCli(['undo', doc.forkId, '--json'], s.env);
    expect(u.code).toBe(0);
    const undo = JSON.parse(u.out);
    expect(readFileSync(undo.path, 'utf8')).toBe(original.toString('utf8').split(`"sessionId":"${s.sessionId}"`).join(`"sessionId":"${undo.sessionId}"`));
    expect(readdirSync(s.projectDir).filter((f) => f.endsWith('.jsonl')).length).toBe(3);
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
