// The index and the archive together, on a scratch copy of a real session in a Claude Code
// configuration folder: the client's deletion date on each row, the kept mark, and a kept session
// that stays listed (and searchable) from the archive once the original is deleted, until restored.
import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { openIndex, type SessionIndex } from '../index/index';
import { scratchSession, type Scratch } from '../fork/test-support';
import { keepSession } from './keep';
import { KeptArchive } from './kept-archive';
import { findKept } from './find';
import { restoreSession } from './restore';
import { isInKeptView, viewDirOf } from './view';
import { writeFork } from '../fork/writer';
import { planFromFile } from '../fork/plan-lines';
import { agentForFile } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const agents = defaultAgents();
const DAY = 86_400_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(): { s: Scratch; index: SessionIndex } {
  const s = scratchSession('04-subagent-compact-multiturn');
  const index = openIndex({ dbPath: join(s.root, 'data', 'index.db'), roots: [join(s.root, 'projects')], workers: 0, archiveDir: s.archiveDir, agents });
  cleanups.push(() => rmSync(s.root, { recursive: true, force: true }));
  cleanups.push(() => index.close());
  return { s, index };
}

function deleteLikeTheClient(s: Scratch): void {
  rmSync(s.sourcePath);
  rmSync(join(s.projectDir, s.sessionId), { recursive: true, force: true });
  rmSync(join(s.root, 'file-history', s.sessionId), { recursive: true, force: true });
}

describe('the index with an archive', () => {
  it('dates each session by its modification time and the clean-up period of its configuration folder', async () => {
    const { s, index } = setup();
    writeFileSync(join(s.root, 'settings.json'), '{"cleanupPeriodDays": 10}');
    const aged = new Date(Date.now() - 15 * DAY);
    utimesSync(s.sourcePath, aged, aged);
    await index.refresh({ analyze: false });
    const [row] = index.list();
    expect(row?.expiresAt).toBe(new Date(statSync(s.sourcePath).mtimeMs + 10 * DAY).toISOString());
    expect(row?.retention).toEqual({ expiresAt: row?.expiresAt, days: 10, decidedBy: `cleanupPeriodDays 10 in ${join(s.root, 'settings.json')}` });
    expect(row?.kept).toBeNull();
  });

  it('marks a kept session, lists it from the archive once the client deleted it, and lists the original again after a restore', async () => {
    const { s, index } = setup();
    await index.refresh({ analyze: false });
    const before = index.list();
    expect(before).toHaveLength(1);
    const title = before[0]?.title;
    const word = (before[0]?.firstPrompt ?? '').split(/\W+/).find((w) => w.length > 5) as string;
    expect(index.list({ search: word })).toHaveLength(1);

    keepSession(s.sourcePath, { archiveDir: s.archiveDir, agents });
    expect(index.list()[0]?.kept).toMatchObject({ current: true, versions: 1, originalPath: s.sourcePath, gone: null });

    deleteLikeTheClient(s);
    // The watcher's refresh of the vanished path brings the archive's copy in.
    await index.refresh({ paths: [s.sourcePath], analyze: false });
    const gone = index.list();
    expect(gone).toHaveLength(1);
    const row = gone[0];
    expect(row?.path.startsWith(viewDirOf(s.archiveDir) + '/')).toBe(true);
    expect(isInKeptView(row?.path ?? '')).toBe(true);
    expect(row).toMatchObject({ sessionId: s.sessionId, title, subagents: 1, expiresAt: null });
    expect(row?.kept?.gone?.noticedAt).toEqual(expect.any(String));
    expect(row?.kept?.originalPath).toBe(s.sourcePath);
    expect(index.list({ search: word }).map((r) => r.path)).toEqual([row?.path]);
    expect(index.get(s.sessionId)[0]?.path).toBe(row?.path);

    restoreSession(findKept(new KeptArchive(s.archiveDir), s.sessionId), { archiveDir: s.archiveDir, agents, roots: [join(s.root, 'projects')] });
    await index.refresh({ analyze: false });
    const back = index.list();
    expect(back.map((r) => r.path)).toEqual([s.sourcePath]);
    expect(back[0]?.kept).toMatchObject({ gone: null, originalPath: s.sourcePath });
  });
});

describe('a kept session whose original is gone', () => {
  it('cannot be forked from its read-only copy: the writer refuses and says to restore it first', async () => {
    const { s, index } = setup();
    keepSession(s.sourcePath, { archiveDir: s.archiveDir, agents });
    deleteLikeTheClient(s);
    await index.refresh({ analyze: false });
    const copy = index.list()[0]?.path as string;
    expect(() => writeFork({ agents: TEST_AGENTS, sourcePath: copy, archiveDir: s.archiveDir, prepare: (src) => ({ actions: planFromFile(src.path, { agent: agentForFile(TEST_AGENTS, src.path), repoRoot: s.repoRoot }).actions }) })).toThrow(
      /read-only copy of a kept session whose original is gone: restore it first/,
    );
  });
});
