import { afterEach, expect, it } from 'vitest';
import type { SessionsListResult, UsageReportView } from '@glassbox/contract';
import type { EngineHost } from './host';
import { createHost } from './index';
import { okValue, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  host = null;
  seeded?.cleanup();
  seeded = null;
});

it('usage:report: the index\'s cost by day, month, project, session and model, each adding up to the list', async () => {
  seeded = seedConfigDir(['01-superseded-reads', '02-gone-drift-errors', '05-autocompact']);
  host = createHost(seeded.env, { watch: false, samplesDir: null }, () => {}, { workers: 0 });
  const h = host;
  const done = new Promise<void>((resolve) => {
    const off = h.onEvent((e, p) => {
      if (e === 'index:progress' && (p as { phase: string }).phase === 'done') {
        off();
        resolve();
      }
    });
  });
  await h.handle('sessions:refresh', {});
  await done;
  const list = await okValue<SessionsListResult>(host.handle('sessions:list', {}));
  const listed = list.sessions.reduce((a, s) => a + (s.costUsd ?? 0), 0);
  expect(listed).toBeGreaterThan(0);
  for (const by of ['day', 'month', 'project', 'session', 'model'] as const) {
    const r = await okValue<UsageReportView>(host.handle('usage:report', { by, timeZone: 'UTC' }));
    expect(r.by).toBe(by);
    expect(r.partial).toBe(false);
    expect(r.total.cost).toBeCloseTo(listed, 6);
    expect(r.rows.reduce((a, x) => a + x.cost, 0)).toBeCloseTo(r.total.cost, 9);
    expect(r.priceTables.map((t) => t.agent)).toContain('claude-code');
    expect(r.rows.map((x) => x.label)).not.toContain('<synthetic>');
  }
  const sessions = await okValue<UsageReportView>(host.handle('usage:report', { by: 'session' }));
  expect(sessions.rows.map((r) => r.key).sort()).toEqual(Object.values(seeded.sessions).sort());
  const bad = await host.handle('usage:report', { by: 'week' });
  expect(bad.ok === false && bad.error.code).toBe('bad_args');
  const zone = await host.handle('usage:report', { by: 'day', timeZone: 'Mars/Olympus' });
  expect(zone.ok === false && zone.error.message).toMatch(/not a time zone/);
  const extra = await host.handle('usage:report', { by: 'day', sql: 'DROP TABLE files' });
  expect(extra.ok === false && extra.error.message).toMatch(/unexpected argument/);
});
