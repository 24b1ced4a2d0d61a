// The attacks and faults the fork writer must survive, played for real on copies of real sessions:
// side files taken from outside the session's own folders (a `...jsonl` name, links, FIFOs, link
// loops), an edited manifest steering `undo`, permissions, a read-only folder and a full disk (a
// small tmpfs, when the tests run as root). A real `kill -9` mid-fork is in apps/cli/src/faults.test.ts;
// a live session appending during a fork and a corrupted archive object are in writer.test.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { Archive } from './archive';
import { ForkError } from '../shared/atomic';
import { undoFork, verifyFork } from './ops';
import { plannedForkOptions, scratchSession, tree, type Scratch } from '@glassbox/test-support/store/fork';
import { writeFork, type WriteForkResult } from './writer';
import { defaultAgents } from '@glassbox/agents';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function scratch(name: string): Scratch {
  const s = scratchSession(name);
  cleanups.push(() => rmSync(s.root, { recursive: true, force: true }));
  return s;
}

function written(r: WriteForkResult): Extract<WriteForkResult, { status: 'written' }> {
  if (r.status !== 'written') throw new Error(`the fork was refused: ${r.report.checks.filter((c) => !c.ok).map((c) => c.id).join(', ')}`);
  return r;
}

function forkError(fn: () => unknown): ForkError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ForkError);
    return error as ForkError;
  }
  throw new Error('expected a ForkError');
}

/** Every object's bytes in an archive, joined: to prove a secret never got in. */
function archiveText(dir: string): string {
  return tree(join(dir, 'objects'))
    .filter((f) => !f.endsWith('/'))
    .map((f) => readFileSync(join(dir, 'objects', f), 'latin1'))
    .join('\n');
}

/** A folder on a tmpfs (mounted read-only when asked), or a skip saying why there cannot be one. */
function tmpfs(ctx: TestContext, size: string): { dir: string; readOnly: () => void } | null {
  if (process.getuid?.() !== 0) {
    ctx.skip('a small or read-only disk is simulated with a tmpfs, which only root can mount');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    ctx.skip(`cannot mount a tmpfs here (${(r.stderr || r.error?.message || '').trim()})`);
    return null;
  }
  cleanups.push(() => {
    spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    readOnly: () => {
      const ro = spawnSync('mount', ['-o', 'remount,ro', dir], { encoding: 'utf8' });
      if (ro.status !== 0) throw new Error(`remount read-only failed: ${ro.stderr}`);
    },
  };
}

/** A scratch session whose config folder lives on the given disk. */
function sessionOn(disk: string, name: string): Scratch {
  const s = scratch(name);
  const root = join(disk, 'config');
  cpSync(s.root, root, { recursive: true });
  return { ...s, root, projectDir: join(root, 'projects', 'scratch-project'), sourcePath: join(root, 'projects', 'scratch-project', `${s.sessionId}.jsonl`), archiveDir: join(s.root, 'archive') };
}

describe('side files come only from the session’s own folders', () => {
  it('a session file named `...jsonl` carries nothing: not the config folder, not other projects, not settings', () => {
    const s = scratch('01-superseded-reads');
    writeFileSync(join(s.root, 'settings.json'), '{"apiKeyHelper":"secret-helper"}');
    const other = join(s.root, 'projects', 'other-project');
    cpSync(s.projectDir, other, { recursive: true });
    const dots = join(s.projectDir, '...jsonl');
    cpSync(s.sourcePath, dots);
    const before = tree(s.root).filter((f) => !f.startsWith('archive/'));
    const r = written(writeFork(plannedForkOptions(s, { sourcePath: dots })));
    expect(r.manifest.sidecars).toEqual([]);
    expect(r.sidecarDir).toBeNull();
    const after = tree(s.root).filter((f) => !f.startsWith('archive/'));
    expect(after.filter((f) => !before.includes(f))).toEqual([`projects/scratch-project/${r.forkId}.jsonl`]);
    expect(archiveText(s.archiveDir)).not.toContain('secret-helper');
  });

  it('a side file that is a link to a private file refuses the fork; nothing is copied or archived', () => {
    const s = scratch('03-large-outputs');
    const secret = join(s.root, 'private.txt');
    writeFileSync(secret, 'BEGIN PRIVATE KEY');
    const link = join(s.projectDir, s.sessionId, 'tool-results', 'x.txt');
    symlinkSync(secret, link);
    const before = tree(s.projectDir);
    const e = forkError(() => writeFork(plannedForkOptions(s)));
    expect(e.code).toBe('unsafe_side_file');
    expect(e.message).toContain(`${link} is a symbolic link`);
    expect(tree(s.projectDir)).toEqual(before);
    expect(existsSync(join(s.archiveDir, 'forks')) ? readdirSync(join(s.archiveDir, 'forks')) : []).toEqual([]);
    expect(archiveText(s.archiveDir)).not.toContain('BEGIN PRIVATE KEY');
  });

  it('a linked side folder, a link loop and a FIFO are refused by name, without blocking', () => {
    const s = scratch('03-large-outputs');
    const results = join(s.projectDir, s.sessionId, 'tool-results');
    const loop = join(results, 'loop');
    symlinkSync('loop', loop);
    expect(forkError(() => writeFork(plannedForkOptions(s))).message).toContain(`${loop} is a symbolic link`);
    rmSync(loop);
    const fifo = join(results, 'pipe.txt');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const e = forkError(() => writeFork(plannedForkOptions(s)));
    expect(e.code).toBe('unsafe_side_file');
    expect(e.message).toContain(`${fifo} is a FIFO (named pipe)`);
    rmSync(fifo);
    const moved = join(s.root, 'elsewhere');
    cpSync(results, moved, { recursive: true });
    rmSync(results, { recursive: true });
    symlinkSync(moved, results);
    expect(forkError(() => writeFork(plannedForkOptions(s))).message).toContain(`${results} is a symbolic link`);
  });
});

describe('an edited manifest', () => {
  it('cannot steer undo outside the session’s folders: side-file paths and the fork path are checked first', () => {
    const s = scratch('03-large-outputs');
    const r = written(writeFork(plannedForkOptions(s)));
    expect(r.manifest.sidecars.length).toBeGreaterThan(0);
    const path = new Archive(s.archiveDir).manifestPath(r.forkId);
    const original = readFileSync(path, 'utf8');
    const edit = (change: (m: Record<string, unknown> & { sidecars: { rel: string }[] }) => void) => {
      const m = JSON.parse(original) as Record<string, unknown> & { sidecars: { rel: string }[] };
      change(m);
      writeFileSync(path, JSON.stringify(m));
    };
    // A folder that exists, away from the session: a fork is always written beside its original.
    const elsewhere = join(s.root, 'elsewhere');
    mkdirSync(elsewhere);
    const before = tree(s.root).filter((f) => !f.startsWith('archive/'));
    for (const change of [
      (m: { sidecars: { rel: string }[] }) => ((m.sidecars[0] as { rel: string }).rel = 'tool-results/../../../../escaped.txt'),
      (m: { sidecars: { rel: string }[] }) => ((m.sidecars[0] as { rel: string }).rel = '/tmp/escaped.txt'),
      (m: { sidecars: { rel: string }[] }) => ((m.sidecars[0] as { rel: string }).rel = 'settings.json'),
      (m: Record<string, unknown>) => (m['forkPath'] = `${s.root}/projects/../../escaped/${r.forkId}.jsonl`),
      (m: Record<string, unknown>) => (m['forkPath'] = join(elsewhere, `${r.forkId}.jsonl`)),
      (m: Record<string, unknown>) => (m['forkPath'] = 'relative/x.jsonl'),
    ]) {
      edit(change as never);
      const e = forkError(() => undoFork(r.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir }));
      expect(e.code).toBe('archive_corrupt');
      expect(e.message).toMatch(/cannot be trusted/);
      expect(tree(s.root).filter((f) => !f.startsWith('archive/'))).toEqual(before);
    }
    expect(existsSync(join(s.root, '..', 'escaped.txt'))).toBe(false);
    writeFileSync(path, original);
    expect(undoFork(r.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir }).report.ok).toBe(true);
  });
});

describe('permissions', () => {
  it('a fork, its side files and an undo take their originals’ modes', () => {
    const s = scratch('03-large-outputs');
    chmodSync(s.sourcePath, 0o640);
    const sideFile = join(s.projectDir, s.sessionId, 'tool-results', readdirSync(join(s.projectDir, s.sessionId, 'tool-results'))[0] as string);
    chmodSync(sideFile, 0o604);
    const r = written(writeFork(plannedForkOptions(s)));
    expect(statSync(r.forkPath).mode & 0o777).toBe(0o640);
    const carried = join(r.sidecarDir as string, 'tool-results', sideFile.split('/').pop() as string);
    expect(statSync(carried).mode & 0o777).toBe(0o604);
    const undo = undoFork(r.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir });
    expect(statSync(undo.path).mode & 0o777).toBe(0o640);
    // Glassbox's own archive stays private.
    expect(statSync(r.manifestPath).mode & 0o777).toBe(0o600);
  });
});

describe('the disk says no', () => {
  it('a read-only projects folder: refused with the reason, nothing written anywhere', (ctx) => {
    const disk = tmpfs(ctx, '16m');
    if (!disk) return;
    const s = sessionOn(disk.dir, '03-large-outputs');
    const before = tree(s.root);
    disk.readOnly();
    const e = forkError(() => writeFork(plannedForkOptions(s)));
    expect(e.code).toBe('unwritable');
    expect(e.message).toMatch(/EROFS.*nothing was written/);
    expect(tree(s.root)).toEqual(before);
    expect(existsSync(join(s.archiveDir, 'forks')) ? readdirSync(join(s.archiveDir, 'forks')) : []).toEqual([]);
  });

  it.for([
    { how: 'by the fork pass', archiveThread: 'never' as const },
    { how: 'on a thread', archiveThread: 'always' as const },
  ])('a full disk (the original archived $how): refused with the reason, no partial fork, no temporary file, no manifest', ({ archiveThread }, ctx) => {
    const disk = tmpfs(ctx, '3m');
    if (!disk) return;
    const s = sessionOn(disk.dir, '03-large-outputs');
    const before = tree(s.root);
    // Fill what is left, so the fork (about the size of its original) cannot fit.
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(disk.dir, `filler-${i}`), Buffer.alloc(16 * 1024, 0x61));
      } catch {
        break;
      }
    }
    const e = forkError(() => writeFork(plannedForkOptions(s, { archiveThread })));
    expect(e.code).toBe('unwritable');
    expect(e.message).toMatch(/ENOSPC.*nothing was written/);
    expect(tree(s.root)).toEqual(before);
    expect(existsSync(join(s.archiveDir, 'forks')) ? readdirSync(join(s.archiveDir, 'forks')) : []).toEqual([]);
    // Once there is room again, the same fork is written and verifies.
    for (const f of readdirSync(disk.dir).filter((n) => n.startsWith('filler-'))) rmSync(join(disk.dir, f));
    const r = written(writeFork(plannedForkOptions(s, { archiveThread })));
    expect(verifyFork(r.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir }).report.ok).toBe(true);
  });
});

describe('leftovers of a process that died mid-write', () => {
  it('the next fork removes dead processes’ temporary files and an older build’s manifest of a fork that never got its name', () => {
    const s = scratch('03-large-outputs');
    const archive = new Archive(s.archiveDir);
    // Two forks written for real; then the files an older build left when killed mid-write: its manifest
    // (written first, then) and the fork's temporary file, with the pid of a process that has exited.
    const interrupted = written(writeFork(plannedForkOptions(s)));
    const deleted = written(writeFork(plannedForkOptions(s)));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    rmSync(interrupted.forkPath);
    rmSync(interrupted.sidecarDir as string, { recursive: true });
    const temp = join(s.projectDir, `.${interrupted.forkId}.jsonl.glassbox-${deadPid}-0badc0de.tmp`);
    writeFileSync(temp, readFileSync(s.sourcePath).subarray(0, 1000));
    const liveTemp = join(s.projectDir, `.x.jsonl.glassbox-${process.pid}-0badc0de.tmp`);
    writeFileSync(liveTemp, 'a write in progress');
    const objectTemp = join(s.archiveDir, 'objects', '00', `.${'0'.repeat(64)}.glassbox-${deadPid}-0badc0de.tmp`);
    cpSync(temp, objectTemp, { force: true, recursive: true });
    // A fork the person deleted (no temporary file of it) keeps its manifest: undo can still restore.
    rmSync(deleted.forkPath);

    written(writeFork(plannedForkOptions(s)));
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(objectTemp)).toBe(false);
    expect(existsSync(archive.manifestPath(interrupted.forkId))).toBe(false);
    expect(existsSync(liveTemp)).toBe(true);
    expect(existsSync(archive.manifestPath(deleted.forkId))).toBe(true);
    rmSync(liveTemp);
  });
});
