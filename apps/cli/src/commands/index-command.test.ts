import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copyScenario, tempTree, type TempTree } from '@glassbox/test-support/store/corpus';
import { runCli } from './cli-test-io';

let tree: TempTree;
afterEach(() => tree?.cleanup());

function env(): NodeJS.ProcessEnv {
  return { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), GLASSBOX_DATA_DIR: join(tree.dir, 'data'), HOME: tree.dir };
}

it('glassbox index: first run, no-op re-run, an append, --rebuild; plain progress lines off a terminal', async () => {
  tree = tempTree();
  const root = tree.root('claude');
  const project = copyScenario(root, '01-superseded-reads');
  copyScenario(root, '04-subagent-compact-multiturn');
  const first = await runCli(['index', '--workers', '0', '--no-analysis'], env());
  expect(first.code).toBe(0);
  expect(first.out).toMatch(/^3 files: 3 new, 0 appended, 0 re-read, 0 removed, 0 unchanged; read .* in [\d.]+ s$/m);
  expect(first.out).toContain(`index: ${join(tree.dir, 'data', 'index.db')}`);
  expect(first.err).toMatch(/^reading 3\/3 files · .* · [\d.]+ s$/m);
  expect(first.err).not.toContain('\r');
  expect(first.err).not.toContain('\u001b[');

  const again = await runCli(['index', '--workers', '0', '--no-analysis'], env());
  expect(again.out).toMatch(/^3 files: 0 new, 0 appended, 0 re-read, 0 removed, 3 unchanged; read 0 B/m);

  const path = join(project, readdirSync(project).find((n) => n.endsWith('.jsonl')) as string);
  const text = readFileSync(path);
  const cut = text.indexOf(10, Math.floor(text.length / 2)) + 1;
  writeFileSync(path, text.subarray(0, cut));
  const shrunk = await runCli(['index', '--workers', '0', '--no-analysis'], env());
  expect(shrunk.out).toMatch(/1 re-read/);
  appendFileSync(path, text.subarray(cut));
  const grown = await runCli(['index', '--workers', '0', '--no-analysis', '--json'], env());
  const report = JSON.parse(grown.out) as { appended: number; opened: number; bytesRead: number };
  expect(report).toMatchObject({ appended: 1, opened: 1, bytesRead: text.length - cut });

  const rebuilt = await runCli(['index', '--workers', '0', '--no-analysis', '--rebuild'], env());
  expect(rebuilt.out).toMatch(/^3 files: 3 new/m);
});

it('glassbox index FILE indexes a transcript from outside the roots; a missing one is bad input', async () => {
  tree = tempTree();
  tree.root('claude');
  const elsewhere = join(tree.dir, 'elsewhere');
  copyScenario(elsewhere, '05-autocompact');
  const file = join(elsewhere, '-05-autocompact', readdirSync(join(elsewhere, '-05-autocompact'))[0] as string);
  const ok = await runCli(['index', '--workers', '0', '--no-analysis', file], env());
  expect(ok.code).toBe(0);
  expect(ok.out).toContain(`indexed ${file}`);
  const list = await runCli(['sessions', '--json', '--no-refresh'], env());
  expect((JSON.parse(list.out) as { path: string; origin: string }[]).map((r) => [r.path, r.origin])).toEqual([[file, 'opened']]);
  const missing = await runCli(['index', '--workers', '0', join(tree.dir, 'nope.jsonl')], env());
  expect(missing.code).toBe(2);
  expect(missing.err).toMatch(/nope\.jsonl: no such file/);
});

it('a damaged index database is moved aside with a message on stderr, and the command still works', async () => {
  tree = tempTree();
  const root = tree.root('claude');
  copyScenario(root, '06-fork-session');
  await runCli(['index', '--workers', '0', '--no-analysis'], env());
  writeFileSync(join(tree.dir, 'data', 'index.db'), 'not a database '.repeat(500));
  const r = await runCli(['sessions', '--workers', '0', '--no-analysis', '--json'], env());
  expect(r.code).toBe(0);
  expect(r.err).toMatch(/^glassbox: The index was damaged \(.*\): moved .*index\.db to .*index\.db\.corrupt-\S+ and rebuilt the index$/m);
  expect(JSON.parse(r.out)).toHaveLength(2);
});
