import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copyCodexHome, copyPublic, copyScenario, tempTree, type TempTree } from '@glassbox/test-support/store/corpus';
import type { UsageReport } from '@glassbox/engine';
import type { SessionRow } from '@glassbox/store';
import { runCli } from './cli-test-io';

let tree: TempTree;
afterEach(() => tree?.cleanup());

it('glassbox cost without a session: ccusage-style reports by day, month, project, session and model over the index', async () => {
  tree = tempTree();
  const root = tree.root('claude');
  copyScenario(root, '01-superseded-reads');
  copyScenario(root, '05-autocompact');
  copyPublic(root, 'd-kimuson__claude-code-viewer');
  copyCodexHome(join(tree.dir, 'codex'));
  const env = { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), CODEX_HOME: join(tree.dir, 'codex'), GLASSBOX_DATA_DIR: join(tree.dir, 'data'), HOME: tree.dir, TZ: 'UTC' };

  const daily = await runCli(['cost', '--workers', '0'], env);
  expect(daily.code).toBe(0);
  const lines = daily.out.split('\n');
  expect(lines[0]).toMatch(/^Cost by day {2}days in UTC · prices as of claude-code \d{4}-\d\d-\d\d, codex \d{4}-\d\d-\d\d, gemini \d{4}-\d\d-\d\d$/);
  expect(lines[2]).toMatch(/^\s+day\s+sessions\s+input\s+output\s+cache w\s+cache r\s+cost\s+models$/);
  expect(lines.find((l) => l.trim().startsWith('total'))).toMatch(/\$\d+\.\d\d/);
  expect(daily.out).not.toContain('<synthetic>');

  const json = async (by: string) => JSON.parse((await runCli(['cost', '--by', by, '--no-refresh', '--json'], env)).out) as UsageReport;
  const byDay = await json('day');
  // Days in order, each a real day; the same figures however they are grouped.
  expect(byDay.rows.map((r) => r.key)).toEqual([...byDay.rows.map((r) => r.key)].sort());
  expect(byDay.rows.every((r) => /^\d{4}-\d\d-\d\d$/.test(r.key))).toBe(true);
  for (const by of ['month', 'project', 'session', 'model']) {
    const r = await json(by);
    expect(r.total.cost).toBeCloseTo(byDay.total.cost, 9);
    expect(r.total.messages).toBe(byDay.total.messages);
    expect(r.rows.reduce((a, x) => a + x.cost, 0)).toBeCloseTo(r.total.cost, 9);
  }
  // The index's list prices every session the same way: the report is the list's cost, split by day.
  const list = JSON.parse((await runCli(['sessions', '--json', '--no-refresh'], env)).out) as SessionRow[];
  expect(list.reduce((a, r) => a + (r.totalCostUsd ?? 0), 0)).toBeCloseTo(byDay.total.cost, 6);
  const bySession = await json('session');
  expect(bySession.rows).toHaveLength(list.length);
  expect(bySession.rows.every((r) => r.label.length > 0 && r.label !== '—')).toBe(true);
  expect((await json('model')).rows.map((r) => r.key)).not.toContain('<synthetic>');

  // A zone moves messages across midnight, never changes the total.
  const tokyo = JSON.parse((await runCli(['cost', '--no-refresh', '--json', '--timezone', 'Asia/Tokyo'], env)).out) as UsageReport;
  expect(tokyo.timeZone).toBe('Asia/Tokyo');
  expect(tokyo.total.cost).toBeCloseTo(byDay.total.cost, 9);
  const since = JSON.parse((await runCli(['cost', '--no-refresh', '--json', '--since', '2026-01-01'], env)).out) as UsageReport;
  expect(since.rows.every((r) => r.key >= '2026-01-01')).toBe(true);
  expect(since.total.cost).toBeLessThan(byDay.total.cost);

  const bad = await runCli(['cost', '--by', 'week', '--no-refresh'], env);
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/--by week: use one of day, month, project, session, model/);
  expect((await runCli(['cost', '--no-refresh', '--timezone', 'Mars/Olympus'], env)).err).toMatch(/not a time zone/);
});
