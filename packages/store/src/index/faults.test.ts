// The faults the session index must survive, played for real: a database another process holds, a
// full disk (a small tmpfs, when the tests run as root), paths that cannot hold a database, and a
// session truncated under it. Only a damaged file is ever moved aside; everything else is reported
// (IndexUnavailable) and leaves every file as it was. Concurrent indexing by several processes is
// in apps/cli/src/faults.test.ts (real `glassbox index` processes).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { IndexUnavailable } from './db-errors';
import { openIndex } from './index';
import { SCENARIOS, copyScenario, tempTree, type TempTree } from '../test-corpus';
import { defaultAgents } from '@glassbox/agents';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

let tree: TempTree;
const unmount: string[] = [];
afterEach(() => {
  // Lazily: a test that failed may still hold a file open on it.
  for (const dir of unmount.splice(0)) {
    spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
  tree?.cleanup();
});

function setup(): { root: string; dataDir: string; dbPath: string } {
  tree = tempTree();
  const dataDir = join(tree.dir, 'data');
  return { root: tree.root('a'), dataDir, dbPath: join(dataDir, 'index.db') };
}

/** A folder on a tmpfs of `size` (e.g. '64k'), or a skip saying why there cannot be one. */
function smallDisk(ctx: TestContext, size: string): string | null {
  if (process.getuid?.() !== 0) {
    ctx.skip('a full disk is simulated with a small tmpfs, which only root can mount');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-full-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    ctx.skip(`cannot mount a tmpfs here (${(r.stderr || r.error?.message || '').trim()})`);
    return null;
  }
  unmount.push(dir);
  return dir;
}

/** Writes until the disk says no: what is left is a disk with no room at all. */
function fillDisk(dir: string): void {
  const chunk = Buffer.alloc(4096, 0x61);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(dir, `filler-${i}`), chunk);
    } catch {
      return;
    }
  }
}

const aside = (dir: string) => readdirSync(dir).filter((n) => /\.(corrupt|newer-schema|foreign)-/.test(n));

async function expectUnavailable(p: Promise<unknown> | (() => unknown), kind: IndexUnavailable['kind'], message: RegExp): Promise<void> {
  let error: unknown = null;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(IndexUnavailable);
  expect((error as IndexUnavailable).kind).toBe(kind);
  expect((error as Error).message).toMatch(message);
}

describe('a database another process holds', () => {
  it('on open: waits, then says it stays locked, and moves nothing aside', async () => {
    const { root, dataDir, dbPath } = setup();
    copyScenario(root, '01-superseded-reads');
    const first = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await first.refresh({ analyze: false });
    await first.close();
    const holder = new Database(dbPath);
    holder.exec('BEGIN IMMEDIATE');
    try {
      await expectUnavailable(() => openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0, env: { GLASSBOX_LOCK_WAIT_MS: '200' } }), 'locked', /stayed locked by another process for 0\.2 s/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(aside(dataDir)).toEqual([]);
    const again = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    expect(again.list()).toHaveLength(1);
    await again.close();
  });

  it('during a refresh: the refresh fails with the same message, and the rows stay as they were', async () => {
    const { root, dataDir, dbPath } = setup();
    const project = copyScenario(root, '01-superseded-reads');
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0, env: { GLASSBOX_LOCK_WAIT_MS: '200' } });
    await index.refresh({ analyze: false });
    copyScenario(root, '05-autocompact');
    const holder = new Database(dbPath);
    holder.exec('BEGIN IMMEDIATE');
    try {
      await expectUnavailable(index.refresh({ analyze: false }), 'locked', /stayed locked/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(aside(dataDir)).toEqual([]);
    expect(index.list().map((r) => r.path.startsWith(project))).toEqual([true]);
    // Once the other writer is done, the next refresh catches up.
    const report = await index.refresh({ analyze: false });
    expect(report.added).toBe(1);
    expect(index.list()).toHaveLength(2);
    await index.close();
  });
});

describe('a full disk', () => {
  it('on open (no room to create the database): reported as a full disk, nothing moved aside', async (ctx) => {
    const disk = smallDisk(ctx, '64k');
    if (!disk) return;
    const { root } = setup();
    for (const s of SCENARIOS) copyScenario(root, s);
    const data = join(disk, 'data');
    await expectUnavailable(async () => {
      const index = openIndex({ agents: TEST_AGENTS, dataDir: data, roots: [root], workers: 0 });
      try {
        await index.refresh({ analyze: false });
      } finally {
        await index.close().catch(() => undefined);
      }
    }, 'disk_full', /disk holding .* is full/);
    expect(aside(data)).toEqual([]);
  });

  it('during a refresh: reported as a full disk, the database is kept and works once there is room', async (ctx) => {
    const disk = smallDisk(ctx, '2m');
    if (!disk) return;
    const { root } = setup();
    const data = join(disk, 'data');
    const index = openIndex({ agents: TEST_AGENTS, dataDir: data, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    for (const s of SCENARIOS) copyScenario(root, s);
    fillDisk(disk);
    await expectUnavailable(index.refresh({ analyze: false }), 'disk_full', /is full/);
    expect(aside(data)).toEqual([]);
    for (const f of readdirSync(disk).filter((n) => n.startsWith('filler-'))) rmSync(join(disk, f));
    await index.refresh({ analyze: false });
    const sessionFiles = readdirSync(root).flatMap((p) => readdirSync(join(root, p)).filter((n) => n.endsWith('.jsonl')));
    expect(index.list()).toHaveLength(sessionFiles.length);
    await index.close();
  });
});

describe('a path that cannot hold a database', () => {
  it('a dangling index.db link, a data folder that is a file, an index.db that is a folder: bad input, named', async () => {
    const { root } = setup();
    const dangling = join(tree.dir, 'd1');
    mkdirSync(dangling);
    symlinkSync(join(tree.dir, 'nowhere', 'x.db'), join(dangling, 'index.db'));
    await expectUnavailable(() => openIndex({ agents: TEST_AGENTS, dataDir: dangling, roots: [root] }), 'bad_path', /index\.db is a link to .*nowhere\/x\.db, which does not exist/);
    expect(readdirSync(dangling)).toEqual(['index.db']);

    const file = join(tree.dir, 'data-file');
    writeFileSync(file, 'x');
    await expectUnavailable(() => openIndex({ agents: TEST_AGENTS, dataDir: file, roots: [root] }), 'bad_path', /data-file is a file, not a folder/);
    await expectUnavailable(() => openIndex({ agents: TEST_AGENTS, dataDir: join(file, 'deeper'), roots: [root] }), 'bad_path', /data-file is a file, not a folder/);

    const folder = join(tree.dir, 'd2');
    mkdirSync(join(folder, 'index.db'), { recursive: true });
    await expectUnavailable(() => openIndex({ agents: TEST_AGENTS, dataDir: folder, roots: [root] }), 'bad_path', /index\.db is a folder/);
  });
});

describe('a session truncated under the index', () => {
  it('keeps no figure of the bytes that are gone: an empty file has no reclaimable figure, only its error', async () => {
    const { root, dbPath } = setup();
    const project = copyScenario(root, '01-superseded-reads');
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: true });
    const [before] = index.list();
    expect(before?.reclaimableTokens).toBeGreaterThan(0);
    const file = before?.path as string;
    expect(file.startsWith(project)).toBe(true);
    truncateSync(file, 0);
    await index.refresh({ analyze: true });
    const after = index.get(file)[0];
    expect(after?.size).toBe(0);
    expect(after?.analysisError).toMatch(/empty/);
    expect(after?.reclaimableTokens).toBeNull();
    expect(after?.estimatedTokens).toBeNull();
    expect(after?.reclaimableByClass).toBeNull();
    expect(after?.turns).toBe(0);
    await index.close();
  });
});
