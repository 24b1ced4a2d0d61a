// Private by default: under the umasks people have (022, and 000), Glassbox's data folder, index (with
// its WAL and shared-memory files, while the index is open), archive and kept copies are readable by
// their owner only, another local user (nobody) reads none of it, and a folder an older build left open
// is tightened with a notice. Played on a real session kept, forked and indexed.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { keepSession } from '../keep/index';
import { ensureViewCopy, findKept, KeptArchive } from '../keep/index';
import { openIndex } from '../index/index';
import { forgetCheckedFolders, onPrivacyNotice } from './private-folder';
import { copyScenario, tempTree, type TempTree } from '../test-corpus';

const agents = defaultAgents();
const isRoot = process.getuid?.() === 0;

let tree: TempTree;
let umask = 0;
beforeEach(() => {
  tree = tempTree();
  umask = process.umask();
  forgetCheckedFolders();
});
afterEach(() => {
  process.umask(umask);
  tree.cleanup();
});

/** Every folder and file under `dir` with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  const out: { path: string; dir: boolean; mode: number }[] = [{ path: dir, dir: true, mode: statSync(dir).mode & 0o777 }];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...modes(p));
    else out.push({ path: p, dir: false, mode: statSync(p).mode & 0o777 });
  }
  return out;
}

/** Whether user nobody can read the file (as the test runs as root, it can set that user). */
function nobodyReads(path: string): boolean {
  const r = spawnSync(process.execPath, ['-e', `require('fs').readFileSync(${JSON.stringify(path)})`], { uid: 65534, gid: 65534 });
  return r.status === 0;
}

/** Indexes, keeps and reads back a real session under `mask`; returns the data folder and its modes. */
async function fill(mask: number): Promise<{ dataDir: string; all: ReturnType<typeof modes> }> {
  process.umask(mask);
  const root = tree.root('claude');
  const project = copyScenario(root, '04-subagent-compact-multiturn');
  const session = join(project, readdirSync(project).find((n) => n.endsWith('.jsonl')) as string);
  const dataDir = join(tree.dir, 'data');
  const index = openIndex({ dataDir, roots: [root], agents, workers: 0 });
  await index.refresh();
  // Open: its WAL and shared-memory files exist now.
  expect(readdirSync(dataDir).filter((n) => n.startsWith('index.db')).sort()).toEqual(['index.db', 'index.db-shm', 'index.db-wal']);
  const archiveDir = join(dataDir, 'archive');
  keepSession(session, { archiveDir, agents });
  ensureViewCopy(archiveDir, agents, findKept(new KeptArchive(archiveDir), session));
  const all = modes(dataDir);
  await index.close();
  return { dataDir, all };
}

describe.each([0o022, 0o000])('under umask %o', (mask) => {
  it('the data folder is 0700 and everything in it 0600: index, WAL and SHM (while open), archive, kept copies', async () => {
    const { all } = await fill(mask);
    expect(all.filter((m) => m.dir && m.mode !== 0o700)).toEqual([]);
    expect(all.filter((m) => !m.dir && m.mode !== 0o600)).toEqual([]);
    expect(all.filter((m) => !m.dir).length).toBeGreaterThan(5);
  });
});

// Running as another user needs root.
describe.runIf(isRoot)('another local user (nobody)', () => {
  it('reads no file of it even with every folder opened up, and does read a 0644 file beside them', async () => {
    const { dataDir, all } = await fill(0o000);
    for (const d of [tree.dir, dataDir]) chmodSync(d, 0o755);
    const control = join(dataDir, 'readable.txt');
    writeFileSync(control, 'x');
    chmodSync(control, 0o644);
    expect(nobodyReads(control)).toBe(true);
    for (const f of all.filter((m) => !m.dir && !m.path.includes('/archive/'))) expect(nobodyReads(f.path), f.path).toBe(false);
  });
});

describe('a folder left open by an older build', () => {
  it('is tightened to 0700 with a one-line notice, and its old index files to 0600', async () => {
    const dataDir = join(tree.dir, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'index.db'), '');
    chmodSync(join(dataDir, 'index.db'), 0o644);
    const notices: string[] = [];
    const stop = onPrivacyNotice((n) => notices.push(n));
    try {
      const index = openIndex({ dataDir, roots: [tree.root('claude')], agents, workers: 0 });
      await index.close();
    } finally {
      stop();
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'index.db')).mode & 0o777).toBe(0o600);
    expect(notices).toEqual([`${dataDir} could be read by other users (mode 755): made it private (700)`]);
  });

  it('that holds more than Glassbox files (a shared place) is left as it is, said once, its Glassbox files private', async () => {
    const shared = join(tree.dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o755);
    writeFileSync(join(shared, 'notes.txt'), 'not ours');
    const notices: string[] = [];
    const stop = onPrivacyNotice((n) => notices.push(n));
    try {
      const index = openIndex({ dataDir: shared, roots: [tree.root('claude')], agents, workers: 0 });
      await index.close();
    } finally {
      stop();
    }
    expect(statSync(shared).mode & 0o777).toBe(0o755);
    expect(statSync(join(shared, 'index.db')).mode & 0o777).toBe(0o600);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('was left as it is');
  });
});
