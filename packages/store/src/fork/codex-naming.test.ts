import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { ForkError } from '../shared/atomic';
import { forkLineage } from './lineage';
import { forkIdOf, undoFork, verifyFork } from './ops';
import { planFromFile } from './plan-lines';
import { REPO_ROOT, tree } from '@glassbox/test-support/store/fork';
import { writeFork } from './writer';
import { agentForFile } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

// Codex finds a thread by the rollout naming (docs/codex/format.md): the fork must carry it.
const ROLLOUT = /^rollout-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-([0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\.jsonl$/;
const FIXTURE = join(REPO_ROOT, 'fixtures/corpus/codex/01-shell-reads-and-patch');

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A scratch Codex home with the 01 rollout where Codex wrote it: `<home>/sessions/2026/12/01/<name>`. */
function codexHome(): { home: string; source: string; archiveDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'glassbox-codex-fork-'));
  made.push(root);
  const day = join(FIXTURE, 'sessions/2026/12/01');
  const name = readdirSync(day).find((n) => n.endsWith('.jsonl')) as string;
  const target = join(root, 'home/sessions/2026/12/01');
  mkdirSync(target, { recursive: true });
  copyFileSync(join(day, name), join(target, name));
  return { home: join(root, 'home'), source: join(target, name), archiveDir: join(root, 'archive') };
}

function fork(source: string, archiveDir: string, now: Date) {
  const result = writeFork({ agents: TEST_AGENTS,
    sourcePath: source,
    archiveDir,
    now: () => now,
    prepare: (src) => {
      const plan = planFromFile(src.path, { agent: agentForFile(TEST_AGENTS, src.path), repoRoot: join(FIXTURE, 'project-after'), forkSessionId: src.forkId });
      return { actions: plan.actions, cwd: plan.session.cwd, indexed: plan.indexed, session: plan.session };
    },
  });
  if (result.status !== 'written') throw new Error('the fork was refused');
  return result;
}


describe('a Codex fork is named the way Codex names sessions', () => {
  it('rollout-<local time>-<new UUIDv7>.jsonl in the date folder of the time of writing, the id in the file', () => {
    const { home, source, archiveDir } = codexHome();
    const now = new Date(2027, 0, 2, 3, 4, 5);
    const result = fork(source, archiveDir, now);
    const m = ROLLOUT.exec(basename(result.forkPath));
    expect(m, basename(result.forkPath)).not.toBeNull();
    const [, y, mo, d, h, mi, se, id] = m as RegExpExecArray;
    expect([y, mo, d, h, mi, se].map(Number)).toEqual([2027, 1, 2, 3, 4, 5]);
    expect(dirname(result.forkPath)).toBe(join(home, 'sessions', '2027', '01', '02'));
    expect(id).toBe(result.forkId);
    // Time-ordered: the id's first 48 bits are the time of writing.
    expect(parseInt(result.forkId.replace(/-/g, '').slice(0, 12), 16)).toBe(now.getTime());
    const first = JSON.parse(readFileSync(result.forkPath, 'utf8').split('\n', 1)[0] as string) as { payload: { id: string; session_id?: string } };
    expect(first.payload.id).toBe(result.forkId);
    // The session list finds it (as Codex does: by the rollout name under the sessions folder), with its id.
    const codex = defaultAgents().byId('codex').locator;
    const found = codex.discover([join(home, 'sessions')]).map((f) => [basename(dirname(f.path)), f.sessionId]);
    expect(found).toContainEqual(['02', result.forkId]);
    expect(codex.describe(result.forkPath).sessionId).toBe(result.forkId);
    expect(forkIdOf(result.forkPath)).toBe(result.forkId);
    expect(verifyFork(result.forkPath, { agents: TEST_AGENTS, archiveDir }).report.ok).toBe(true);
    // The list links fork and original (the manifest's paths pass the checks).
    expect(forkLineage(archiveDir, TEST_AGENTS).byForkId.get(result.forkId)?.original.path).toBe(source);
  });

  it('undo writes the original back under the same naming, and two forks in one second get two names', () => {
    const { home, source, archiveDir } = codexHome();
    const now = new Date(2027, 5, 7, 8, 9, 10);
    const a = fork(source, archiveDir, now);
    const b = fork(source, archiveDir, now);
    expect(a.forkPath).not.toBe(b.forkPath);
    const undone = undoFork(a.forkId, { agents: TEST_AGENTS, archiveDir, now: () => now });
    expect(ROLLOUT.exec(basename(undone.path))?.[7]).toBe(undone.sessionId);
    expect(dirname(undone.path)).toBe(join(home, 'sessions', '2027', '06', '07'));
    expect(readFileSync(undone.path, 'utf8')).toContain(`"id":"${undone.sessionId}"`);
    expect(forkLineage(archiveDir, TEST_AGENTS).byForkId.get(undone.sessionId)?.kind).toBe('undo');
  });

  it('a source in archived_sessions gets its fork under sessions/, where codex resume looks', () => {
    const { home, source, archiveDir } = codexHome();
    const archived = join(home, 'archived_sessions', basename(source));
    mkdirSync(dirname(archived), { recursive: true });
    copyFileSync(source, archived);
    const result = fork(archived, archiveDir, new Date(2027, 0, 2, 3, 4, 5));
    expect(dirname(result.forkPath)).toBe(join(home, 'sessions', '2027', '01', '02'));
  });

  it('never writes over an existing name, and leaves no date folder behind when nothing was written', () => {
    const { home, source, archiveDir } = codexHome();
    const now = new Date(2027, 2, 3, 4, 5, 6);
    const id = '01a00000-0000-7000-8000-000000000001';
    const taken = join(home, 'sessions/2027/03/03', `rollout-2027-03-03T04-05-06-${id}.jsonl`);
    mkdirSync(dirname(taken), { recursive: true });
    writeFileSync(taken, 'someone else\n');
    const write = (): unknown =>
      writeFork({ agents: TEST_AGENTS, sourcePath: source, archiveDir, now: () => now, newSessionId: id, prepare: (src) => ({ actions: planFromFile(src.path, { agent: agentForFile(TEST_AGENTS, src.path), repoRoot: join(FIXTURE, 'project-after') }).actions }) });
    expect(write).toThrow(ForkError);
    expect(readFileSync(taken, 'utf8')).toBe('someone else\n');
    rmSync(dirname(taken), { recursive: true });
    // A refused write made the folder of today and removes it again.
    const other = new Date(2027, 3, 4, 5, 6, 7);
    expect(() => writeFork({ agents: TEST_AGENTS, sourcePath: source, archiveDir, now: () => other, prepare: () => ({ actions: [] }) })).toThrow(ForkError);
    expect(existsSync(join(home, 'sessions/2027/04'))).toBe(false);
    expect(tree(join(home, 'sessions')).filter((f) => f.includes('.tmp'))).toEqual([]);
  });
});
