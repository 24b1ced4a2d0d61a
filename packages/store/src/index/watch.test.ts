import { appendFileSync, cpSync, mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openIndex, watchRoots, type SessionChange } from './index';
import { CORPUS, copyScenario, tempTree, type TempTree } from '@glassbox/test-support/store/corpus';
import { defaultAgents } from '@glassbox/agents';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

let tree: TempTree;
afterEach(() => tree?.cleanup());

/** Resolves with the first change that satisfies the test (the watcher works in real time). */
function nextChange(changes: SessionChange[], test: (c: SessionChange) => boolean): Promise<SessionChange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const hit = changes.find(test);
      if (hit) {
        clearInterval(poll);
        resolve(hit);
      } else if (Date.now() - started > 15_000) {
        clearInterval(poll);
        reject(new Error(`no such change; saw ${JSON.stringify(changes.map((c) => [c.type, c.reason, c.path]))}`));
      }
    }, 20);
  });
}

it('reports new sessions, appends (only once the line is complete), atomic replaces and deletions, one row each', async () => {
  tree = tempTree();
  const root = tree.root('a');
  const project = copyScenario(root, '01-superseded-reads');
  const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
  const path = join(project, name);
  const whole = readFileSync(path);
  const cut = whole.indexOf(10, Math.floor(whole.length / 2)) + 1;
  writeFileSync(path, whole.subarray(0, cut));

  const index = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'index.db'), roots: [root], workers: 0 });
  await index.refresh({ analyze: false });
  const turnsBefore = index.get(path)[0]?.turns ?? 0;
  const recordsBefore = index.get(path)[0]?.records ?? 0;
  const changes: SessionChange[] = [];
  const w = watchRoots(index, (c) => changes.push(c), { debounceMs: 50, analyze: false });
  // The async-iterator form sees the same changes.
  const stop = new AbortController();
  const iterated: SessionChange[] = [];
  const iterating = (async () => {
    for await (const c of index.changes({ signal: stop.signal })) iterated.push(c);
  })();
  await w.ready;

  // A half-written line is not read; the rest of the file arrives and one update says what changed.
  const restStart = cut;
  const nextNl = whole.indexOf(10, restStart) + 1;
  appendFileSync(path, whole.subarray(restStart, nextNl - 10));
  const torn = await nextChange(changes, (c) => c.path === path && c.row?.size === nextNl - 10);
  // The half-written line was not read: nothing new was counted, and no problem was reported.
  expect(torn.row?.records).toBe(recordsBefore);
  expect(torn.row?.turns).toBe(turnsBefore);
  expect(torn.row?.problems).toBe(0);
  appendFileSync(path, whole.subarray(nextNl - 10));
  const appended = await nextChange(changes, (c) => c.reason === 'appended' && c.row?.size === whole.length);
  expect(appended.type).toBe('updated');
  expect(appended.row?.turns).toBeGreaterThan(turnsBefore);
  expect(appended.row?.problems).toBe(0);

  // A new session file, written atomically (temp name, then rename).
  const other = join(project, 'aaaaaaaa-1111-2222-3333-444444444444.jsonl');
  writeFileSync(join(project, '.tmp'), whole);
  renameSync(join(project, '.tmp'), other);
  const summarised = await nextChange(changes, (c) => c.path === other && c.reason === 'summarised');
  expect(summarised.type).toBe('updated');
  expect(summarised.row?.sessionId).toBe(appended.row?.sessionId);
  // One 'added' for the new row (from its first and last records), then updates of that row.
  expect(changes.filter((c) => c.path === other).map((c) => [c.type, c.reason, c.row?.stage])).toEqual([
    ['added', 'new', 'listed'],
    ['updated', 'summarised', 'summarised'],
  ]);

  unlinkSync(other);
  const removed = await nextChange(changes, (c) => c.type === 'removed' && c.path === other);
  expect(removed.row).toBeNull();
  expect(index.list()).toHaveLength(1);
  stop.abort();
  await iterating;
  expect(iterated.map((c) => [c.type, c.reason, c.path])).toEqual(changes.map((c) => [c.type, c.reason, c.path]));
  await w.close();
  await index.close();
});

it('is ready only once the roots that exist are watched, and picks up a sessions folder that appears later (Codex installed, no session yet)', async () => {
  tree = tempTree();
  const claude = tree.root('claude');
  const project = copyScenario(claude, '02-gone-drift-errors');
  const path = join(project, readdirSync(project).find((n) => n.endsWith('.jsonl')) as string);
  const whole = readFileSync(path);
  const cut = whole.indexOf(10, Math.floor(whole.length / 2)) + 1;
  writeFileSync(path, whole.subarray(0, cut));
  const codexHome = join(tree.dir, 'codex-home');
  mkdirSync(codexHome);
  const index = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'index.db'), env: { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), CODEX_HOME: codexHome }, home: tree.dir, workers: 0 });
  await index.refresh({ analyze: false });
  const changes: SessionChange[] = [];
  const w = watchRoots(index, (c) => changes.push(c), { debounceMs: 50, analyze: false });
  await w.ready;
  // Appended at once after ready: the Codex roots, which do not exist, must not have hidden it.
  appendFileSync(path, whole.subarray(cut));
  expect((await nextChange(changes, (c) => c.path === path && c.reason === 'appended')).row?.size).toBe(whole.length);
  // The first Codex session: its sessions folder appears, and the rollout is indexed as Codex's.
  const rollout = join(CORPUS, 'codex/04-read-grammar-and-fork/sessions/2026/12/01/rollout-2026-12-01T03-03-29-01a22f8e-af69-7e93-a3d3-2918fc28f99d.jsonl');
  const day = join(codexHome, 'sessions/2026/12/01');
  mkdirSync(day, { recursive: true });
  cpSync(rollout, join(day, basename(rollout)));
  const added = await nextChange(changes, (c) => c.path === join(day, basename(rollout)) && c.row?.stage === 'summarised');
  expect([added.row?.agent, added.row?.turns]).toEqual(['codex', 1]);
  await w.close();
  await index.close();
});

it('reads the second of two appends made closer together than chokidar reports changes', async () => {
  tree = tempTree();
  const root = tree.root('a');
  const project = copyScenario(root, '01-superseded-reads');
  const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
  const path = join(project, name);
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0);
  writeFileSync(path, lines.slice(0, 20).join('\n') + '\n');
  const index = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'index.db'), roots: [root], workers: 0 });
  await index.refresh({ analyze: false });
  const changes: SessionChange[] = [];
  const w = watchRoots(index, (c) => changes.push(c), { debounceMs: 5, analyze: false });
  await w.ready;
  appendFileSync(path, `${lines[20]}\n`);
  await nextChange(changes, (c) => c.path === path && c.reason === 'appended');
  // The second record follows the first one's pass at once: chokidar drops its change event.
  appendFileSync(path, `${lines[21]}\n`);
  const size = readFileSync(path).length;
  const last = await nextChange(changes, (c) => c.path === path && c.row?.size === size);
  expect(last.row?.records).toBe(22);
  await w.close();
  index.close();
});

it('picks up an agent installed after it started: a root none of whose parents existed (no ~/.codex at all)', async () => {
  tree = tempTree();
  const claude = tree.root('claude');
  copyScenario(claude, '02-gone-drift-errors');
  const codexHome = join(tree.dir, 'not-yet', 'codex-home');
  const index = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'index.db'), env: { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), CODEX_HOME: codexHome }, home: tree.dir, workers: 0 });
  await index.refresh({ analyze: false });
  const changes: SessionChange[] = [];
  const w = watchRoots(index, (c) => changes.push(c), { debounceMs: 50, analyze: false });
  await w.ready;
  // Made the way an installer and the first session do: the folders one by one, then the rollout inside.
  const rollout = join(CORPUS, 'codex/04-read-grammar-and-fork/sessions/2026/12/01/rollout-2026-12-01T03-03-29-01a22f8e-af69-7e93-a3d3-2918fc28f99d.jsonl');
  mkdirSync(join(tree.dir, 'not-yet'));
  mkdirSync(codexHome);
  const day = join(codexHome, 'sessions/2026/12/01');
  mkdirSync(day, { recursive: true });
  cpSync(rollout, join(day, basename(rollout)));
  const added = await nextChange(changes, (c) => c.path === join(day, basename(rollout)) && c.row?.stage === 'summarised');
  expect([added.row?.agent, added.row?.turns]).toEqual(['codex', 1]);
  // And it is watched from then on: a second rollout, written after the settle-time second read, is
  // seen as it is written.
  await new Promise((r) => setTimeout(r, 1500));
  const second = join(day, basename(rollout).replace('01a22f8e', '01a22f8f'));
  cpSync(rollout, second);
  expect((await nextChange(changes, (c) => c.path === second && c.row?.stage === 'summarised')).row?.agent).toBe('codex');
  await w.close();
  await index.close();
});

/** An indexed root holding one real session, and a watcher started on it (not yet ready). */
async function watchedSession(): Promise<{ root: string; name: string; text: string; changes: SessionChange[]; index: ReturnType<typeof openIndex>; w: ReturnType<typeof watchRoots> }> {
  tree = tempTree();
  const root = tree.root('claude');
  const source = copyScenario(root, '02-gone-drift-errors');
  const name = readdirSync(source).find((n) => n.endsWith('.jsonl')) as string;
  const text = readFileSync(join(source, name), 'utf8');
  const index = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'index.db'), roots: [root], workers: 0 });
  await index.refresh({ analyze: false });
  const changes: SessionChange[] = [];
  const w = watchRoots(index, (c) => changes.push(c), { debounceMs: 20, analyze: false });
  return { root, name, text, changes, index, w };
}

it('sees every session written into a folder made just before it, however soon after (a new project, a new day of rollouts)', async () => {
  const { root, text, changes, index, w } = await watchedSession();
  await w.ready;
  // Chokidar lists a new folder before it watches it: a file written between the two is the case.
  const written: string[] = [];
  for (let i = 0; i < 16; i++) {
    const folder = join(root, `-new-project-${i}`);
    mkdirSync(folder);
    if (i % 4 > 0) await new Promise((r) => setTimeout(r, i % 4));
    const path = join(folder, `0000000${i.toString(16)}-0000-4000-8000-000000000000.jsonl`);
    writeFileSync(path, text);
    written.push(path);
  }
  for (const path of written) await nextChange(changes, (c) => c.path === path && c.row?.stage === 'summarised');
  await w.close();
  await index.close();
});

it('sees a session written while the watcher starts, after the index last listed the roots (a session started as Glassbox starts)', async () => {
  const { root, name, text, changes, index, w } = await watchedSession();
  // Before chokidar has walked the root: its walk finds the file as one that was always there.
  const folder = join(root, '-started-meanwhile');
  mkdirSync(folder);
  const path = join(folder, name);
  writeFileSync(path, text);
  await w.ready;
  await nextChange(changes, (c) => c.path === path && c.row?.stage === 'summarised');
  expect(changes.find((c) => c.path === path)?.type).toBe('added');
  await w.close();
  await index.close();
});
