import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copyPublic, copyScenario, tempTree, type TempTree } from '@glassbox/test-support/store/corpus';
import type { SessionRow } from '@glassbox/store';
import { runCli } from './cli-test-io';

let tree: TempTree;
afterEach(() => tree?.cleanup());

it('glassbox sessions: a table, filters, search, sort, limit and JSON', async () => {
  tree = tempTree();
  const root = tree.root('claude');
  copyScenario(root, '01-superseded-reads');
  copyScenario(root, '03-large-outputs');
  copyScenario(root, '05-autocompact');
  copyPublic(root, 'd-kimuson__claude-code-viewer');
  const env = { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), GLASSBOX_DATA_DIR: join(tree.dir, 'data'), HOME: tree.dir };

  const table = await runCli(['sessions', '--workers', '0'], env);
  expect(table.code).toBe(0);
  const lines = table.out.split('\n');
  expect(lines[0]).toMatch(/^project\s+title\s+last activity\s+size\s+context\s+reclaim\s+cost\s+client deletes\s+kept$/);
  expect(lines).toHaveLength(1 + 6);
  const superseded = lines.find((l) => l.includes('Add a low-stock report'));
  // Analysed during the refresh: the superseded reads are reclaimable, and the cost is priced.
  expect(superseded).toMatch(/\d+\.\d KB\s+\d+\.\dk\s+[1-9]\d?%\s+\$\d+\.\d\d\s+in 29 days\s+no$/);

  const json = JSON.parse((await runCli(['sessions', '--json', '--no-refresh', '--sort', 'size'], env)).out) as SessionRow[];
  expect(json.map((r) => r.size)).toEqual([...json.map((r) => r.size)].sort((a, b) => b - a));
  expect(json.every((r) => r.stage === 'analysed')).toBe(true);

  const old = JSON.parse((await runCli(['sessions', '--json', '--no-refresh', '--since', '2025-09-05', '--project', 'Demo'], env)).out) as SessionRow[];
  expect(old.map((r) => r.sessionId)).toEqual(['5c0375b4-57a5-4f26-b12d-d022ee4e51b7']);

  const found = JSON.parse((await runCli(['sessions', '--json', '--no-refresh', '--search', 'low-stock'], env)).out) as SessionRow[];
  expect(found.map((r) => r.project)).toEqual(['-01-superseded-reads']);

  const limited = await runCli(['sessions', '--no-refresh', '--limit', '2', '--sort', 'cost'], env);
  expect(limited.out.split('\n')).toHaveLength(3);

  const bad = await runCli(['sessions', '--sort', 'colour'], env);
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/--sort colour: use one of activity, size/);
  const badSince = await runCli(['sessions', '--since', 'yesterday-ish'], env);
  expect(badSince.code).toBe(2);
});

it('glassbox sessions --search: words of replies and tool results, each session with its hit in context', async () => {
  tree = tempTree();
  const root = tree.root('claude');
  copyScenario(root, '01-superseded-reads');
  copyScenario(root, '02-gone-drift-errors');
  const env = { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), GLASSBOX_DATA_DIR: join(tree.dir, 'data'), HOME: tree.dir };
  // A reply only the model wrote.
  const r = await runCli(['sessions', '--workers', '0', '--no-analysis', '--search', 'Confirming gone'], env);
  expect(r.code).toBe(0);
  const lines = r.out.split('\n');
  expect(lines).toHaveLength(3);
  expect(lines[2]).toMatch(/^ {2}↳ .*Confirming it is gone/);
  const json = JSON.parse((await runCli(['sessions', '--json', '--no-refresh', '--search', 'Confirming gone'], env)).out) as SessionRow[];
  expect(json[0]?.snippet?.filter((_, i) => i % 2 === 1)).toEqual(['Confirming', 'gone']);
  // Query syntax is read as words: nothing matches, nothing fails.
  const hostile = await runCli(['sessions', '--no-refresh', '--search', 'gone" OR "report'], env);
  expect(hostile.code).toBe(0);
  expect(hostile.out).toContain('no session matches');
});
