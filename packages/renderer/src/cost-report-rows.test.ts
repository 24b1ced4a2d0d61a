import { expect, it } from 'vitest';
import type { UsageRowView } from '@glassbox/contract';
import { costLabel, defaultSort, sortUsageRows } from './cost-report-rows';

const row = (key: string, cost: number, reported = true): UsageRowView => ({ key, label: key, reported, sessions: 1, messages: reported ? 1 : 0, input: 0, output: 0, cacheCreation: 0, cacheRead: 0, cost, unpriced: 0, models: [] });

it('sorts by a column either way, days in time order by default, a session without usage last by cost', () => {
  const rows = [row('2026-11-02', 1), row('2026-11-01', 3), row('legacy', 0, false), row('2026-11-03', 0)];
  expect(sortUsageRows(rows, defaultSort('day')).map((r) => r.key)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', 'legacy']);
  expect(sortUsageRows(rows, defaultSort('session')).map((r) => r.key)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', 'legacy']);
  expect(sortUsageRows(rows, { column: 'cost', descending: false }).map((r) => r.key)[0]).toBe('legacy');
});

it('a session that reports no usage is "not reported", never $0.00', () => {
  expect(costLabel(row('legacy', 0, false))).toBe('not reported');
  expect(costLabel(row('free', 0))).toBe('$0.00');
  expect(costLabel({ ...row('x', 1.5), unpriced: 2 })).toBe('$1.50 + 2 unpriced');
});

it('the window shows a price source without the CLI flag, and a turn never titled with a dash', async () => {
  const { windowPriceSource, turnTitle } = await import('./cost-report-rows');
  // The adapters' sources as they read.
  expect(windowPriceSource("Claude Code 2.1.332's built-in model catalogue (first-party API list prices per MTok); override prices with --prices FILE")).toBe(
    "Claude Code 2.1.332's built-in model catalogue (first-party API list prices per MTok)",
  );
  expect(windowPriceSource('OpenAI API list prices per MTok; override with --prices FILE')).toBe('OpenAI API list prices per MTok');
  expect(turnTitle(3, '\n\n  Fix the parser\nplease')).toBe('Fix the parser');
  expect(turnTitle(3, '')).not.toBe('—');
  expect(turnTitle(0, '')).toBe('before the first prompt');
});
