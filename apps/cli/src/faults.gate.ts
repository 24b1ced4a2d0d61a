// The faults the CLI must survive, played with real processes on real (copied) sessions: several
// `glassbox index` at once on a fresh data folder, a `kill -9` in the middle of writing a fork, a FIFO
// named as a session, an id found in two project folders, and the machine saying no (a lock held too
// long, a full disk, paths that cannot hold an index, a link loop beside a session). Exit codes: 0
// done, 1 refused, 2 bad input; 70 only for a bug, never for any of these.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { CORPUS, SCENARIOS, copyPublic, copyScenario, tempTree, type TempTree } from '@glassbox/test-support/store/corpus';
import { holdWriteLock, indexRows } from '@glassbox/test-support/store/index-db';
import { runCli } from './commands/cli-test-io';

const BIN = resolve(import.meta.dirname, '../bin/glassbox.mjs');
const cleanups: (() => void)[] = [];
let tree: TempTree;
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
  tree?.cleanup();
});

function setup(): { root: string; env: NodeJS.ProcessEnv; data: string } {
  tree = tempTree();
  const root = tree.root('claude');
  const data = join(tree.dir, 'data');
  return { root, data, env: { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), GLASSBOX_DATA_DIR: data, HOME: tree.dir, NO_COLOR: '1' } };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('several writers on one index', () => {
  it('3 parallel `glassbox index` × 10 rounds on a fresh data folder: all exit 0, with the rows one indexer writes', async () => {
    const { root, env, data } = setup();
    for (const s of SCENARIOS) copyScenario(root, s);
    copyPublic(root, 'd-kimuson__claude-code-viewer');
    const alone = await run(['index', '--workers', '0'], env);
    expect(alone.code, alone.stderr).toBe(0);
    const expected = indexRows(join(data, 'index.db'));
    for (let round = 1; round <= 10; round++) {
      rmSync(data, { recursive: true, force: true });
      const runs = await Promise.all([run(['index', '--workers', '0'], env), run(['index', '--workers', '0'], env), run(['index', '--workers', '0'], env)]);
      for (const r of runs) expect(r.code, `round ${round}: ${r.stderr}`).toBe(0);
      expect(readdirSync(data).filter((n) => n.includes('.corrupt-')), `round ${round}`).toEqual([]);
      expect(indexRows(join(data, 'index.db')), `round ${round}`).toEqual(expected);
    }
  }, 240_000);
});

describe('a fork killed with kill -9 while it is written', () => {
  it('leaves no manifest, and the next run removes its temporary files', async () => {
    const { root, env, data } = setup();
    const project = copyScenario(root, '03-large-outputs');
    const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
    const session = join(project, name);
    // The real session with one record padded by an unknown field (kept byte for byte by a fork), so
    // that writing the fork takes long enough to be interrupted.
    const lines = readFileSync(session, 'utf8').split('\n');
    const first = JSON.parse(lines[0] as string) as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...first, glassboxTestPadding: 'x'.repeat(24 * 1024 * 1024) });
    writeFileSync(session, lines.join('\n'));
    const repo = join(CORPUS, 'generated/03-large-outputs/project-after');

    const child = spawn(process.execPath, [BIN, 'clean', session, '--repo', repo, '--fork'], { env: { ...process.env, ...env }, stdio: 'ignore' });
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    const temp = await new Promise<string>((found) => {
      const w = watch(project, (_event, file) => {
        if (file && /^\..+\.jsonl\.glassbox-\d+-[0-9a-f]{8}\.tmp$/.test(file) && existsSync(join(project, file))) {
          child.kill('SIGKILL');
          w.close();
          found(file);
        }
      });
    });
    await exited;
    const forkId = temp.slice(1).replace(/\.jsonl\.glassbox-.*$/, '');
    // Killed mid-write: the temporary file is there, the fork never got its name.
    expect(existsSync(join(project, temp))).toBe(true);
    expect(existsSync(join(project, `${forkId}.jsonl`))).toBe(false);
    expect(existsSync(join(data, 'archive', 'forks', `${forkId}.json`))).toBe(false);
    const undo = await runCli(['undo', forkId], env);
    expect(undo.code).toBe(2);

    const next = await run(['clean', session, '--repo', repo, '--fork'], env);
    expect(next.code, next.stderr).toBe(0);
    const left = readdirSync(project).filter((n) => n.startsWith('.'));
    expect(left).toEqual([]);
    const sessions = readdirSync(project).filter((n) => n.endsWith('.jsonl'));
    expect(sessions).toHaveLength(2);
    const manifests = readdirSync(join(data, 'archive', 'forks'));
    expect(manifests).toHaveLength(1);
    expect(manifests[0]).not.toBe(`${forkId}.json`);
  }, 120_000);
});

describe('bad input is named, not hung on or crashed on', () => {
  it('a FIFO named as a session: exit 2 with its kind, at once', () => {
    const { env } = setup();
    const fifo = join(tree.dir, 'pipe.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = spawnSync(process.execPath, [BIN, 'inspect', fifo], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${fifo}: is a FIFO (named pipe), not a regular file`);
    const idx = spawnSync(process.execPath, [BIN, 'index', fifo], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 });
    expect(idx.signal).toBeNull();
    expect(idx.status).toBe(2);
    expect(idx.stderr).toContain('is a FIFO (named pipe), not a regular file');
  });

  it('a session id found in two project folders: exit 2 listing both, none picked', async () => {
    const { root, env } = setup();
    const a = copyScenario(root, '01-superseded-reads');
    const name = readdirSync(a).find((n) => n.endsWith('.jsonl')) as string;
    const b = join(root, '-another-checkout');
    mkdirSync(b);
    cpSync(join(a, name), join(b, name));
    const r = await runCli(['inspect', name.replace('.jsonl', ''), '--json'], env);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/matches 2 session files; give the path of the one you mean/);
    expect(r.err).toContain(join(a, name));
    expect(r.err).toContain(join(b, name));
    expect(r.out).toBe('');
  });
});

describe('the machine says no: 1 or 2 with a clear message, never 70', () => {
  it('a link loop beside a session: the fork is refused (1), naming the link', async () => {
    const { root, env } = setup();
    const project = copyScenario(root, '03-large-outputs');
    const id = readdirSync(project).find((n) => n.endsWith('.jsonl'))?.replace('.jsonl', '') as string;
    const loop = join(project, id, 'tool-results', 'loop');
    symlinkSync('loop', loop);
    const r = await runCli(['clean', id, '--repo', join(CORPUS, 'generated/03-large-outputs/project-after'), '--fork'], env);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${loop} is a symbolic link`);
    expect(r.err).not.toContain('unexpected error');
  });

  it('an index.db that is a dangling link, a data folder that is a file: bad input (2), named', async () => {
    const { root, env } = setup();
    copyScenario(root, '01-superseded-reads');
    mkdirSync(join(tree.dir, 'd1'));
    symlinkSync(join(tree.dir, 'nowhere', 'x.db'), join(tree.dir, 'd1', 'index.db'));
    const dangling = await runCli(['index'], { ...env, GLASSBOX_DATA_DIR: join(tree.dir, 'd1') });
    expect(dangling.code).toBe(2);
    expect(dangling.err).toMatch(/index\.db is a link to .*nowhere\/x\.db, which does not exist/);
    writeFileSync(join(tree.dir, 'data-file'), 'x');
    const file = await runCli(['index'], { ...env, GLASSBOX_DATA_DIR: join(tree.dir, 'data-file') });
    expect(file.code).toBe(2);
    expect(file.err).toMatch(/data-file is a file, not a folder/);
    const forkIntoFile = await runCli(['sessions'], { ...env, GLASSBOX_DATA_DIR: join(tree.dir, 'data-file') });
    expect(forkIntoFile.code).toBe(2);
  });

  it('an index locked past the wait: refused (1), nothing moved aside', async () => {
    const { root, env, data } = setup();
    copyScenario(root, '01-superseded-reads');
    expect((await runCli(['index', '--workers', '0'], env)).code).toBe(0);
    const release = holdWriteLock(join(data, 'index.db'));
    cleanups.push(release);
    const r = await runCli(['index', '--workers', '0'], { ...env, GLASSBOX_LOCK_WAIT_MS: '300' });
    release();
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/stayed locked by another process for 0\.3 s; nothing was changed/);
    expect(readdirSync(data).filter((n) => n.includes('.corrupt-'))).toEqual([]);
  });

  it('a full disk during `glassbox index`: refused (1) as a full disk, nothing moved aside', async (ctx: TestContext) => {
    if (process.getuid?.() !== 0) return ctx.skip('a full disk is simulated with a small tmpfs, which only root can mount');
    const { root, env } = setup();
    for (const s of SCENARIOS) copyScenario(root, s);
    const disk = mkdtempSync(join(tmpdir(), 'glassbox-full-'));
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk], { encoding: 'utf8' });
    if (m.status !== 0) return ctx.skip(`cannot mount a tmpfs here (${m.stderr.trim()})`);
    cleanups.push(() => {
      spawnSync('umount', ['-l', disk]);
      rmSync(disk, { recursive: true, force: true });
    });
    const data = join(disk, 'data');
    // The database is created while there is room; then the disk fills up.
    expect((await runCli(['index', '--workers', '0'], { ...env, CLAUDE_CONFIG_DIR: join(tree.dir, 'empty'), GLASSBOX_DATA_DIR: data })).code).toBe(0);
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(disk, `filler-${i}`), Buffer.alloc(4096, 0x61));
      } catch {
        break;
      }
    }
    const r = await runCli(['index', '--workers', '0'], { ...env, GLASSBOX_DATA_DIR: data });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/is full/);
    expect(r.err).not.toContain('unexpected error');
    expect(readdirSync(data).filter((n) => n.includes('.corrupt-'))).toEqual([]);
  });
  it('a full disk during `glassbox keep`: refused (1) with the reason, the archive as it was; what a killed keep left is swept', async (ctx: TestContext) => {
    if (process.getuid?.() !== 0) return ctx.skip('a full disk is simulated with a small tmpfs, which only root can mount');
    const { root, env } = setup();
    const small = copyScenario(root, '02-gone-drift-errors');
    const big = copyScenario(root, '03-large-outputs');
    const session = (dir: string) => join(dir, readdirSync(dir).find((n) => n.endsWith('.jsonl')) as string);
    const disk = mkdtempSync(join(tmpdir(), 'glassbox-full-'));
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk], { encoding: 'utf8' });
    if (m.status !== 0) return ctx.skip(`cannot mount a tmpfs here (${m.stderr.trim()})`);
    cleanups.push(() => {
      spawnSync('umount', ['-l', disk]);
      rmSync(disk, { recursive: true, force: true });
    });
    const archive = join(disk, 'archive');
    const withArchive = { ...env, GLASSBOX_DATA_DIR: join(disk, 'data') };
    expect((await runCli(['keep', session(small), '--archive', archive], withArchive)).code).toBe(0);
    const fillers: string[] = [];
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(disk, `filler-${i}`), Buffer.alloc(4096, 0x61));
        fillers.push(join(disk, `filler-${i}`));
      } catch {
        break;
      }
    }
    const full = await runCli(['keep', session(big), '--archive', archive], withArchive);
    expect(full.code).toBe(1);
    expect(full.err).toMatch(/ENOSPC|full/);
    expect(full.err).not.toContain('unexpected error');
    expect((await runCli(['archive', 'verify', '--archive', archive], withArchive)).code).toBe(0);
    // A keep killed between writing a chunk and naming it leaves its temporary file, under a pid that is gone.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const shard = join(archive, 'chunks', readdirSync(join(archive, 'chunks'))[0] as string);
    const stale = join(shard, `.${'ab'.repeat(32)}.glassbox-${dead}-0123abcd.tmp`);
    for (const f of fillers) rmSync(f);
    writeFileSync(stale, 'half a chunk');
    // A new process (the sweep runs once per process and archive).
    const again = await run(['keep', session(big), '--archive', archive], withArchive);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(stale)).toBe(false);
  });
});
