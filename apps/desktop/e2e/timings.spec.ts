// The time of each main step as a user meets it (list shown, a 3 MB session opened, a fork written),
// written to e2e/artifacts/timings.json for the record. Not a speed check: nothing here fails on time.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, expect, row, test } from './fixtures';

test.use({ bigSessionMb: 3 });

test('records the time to the list, to a 3 MB session\'s treemap, and to a written fork', async ({ page, app }) => {
  const t0 = Date.now();
  await page.goto(app.url);
  await expect(page.getByTestId('session-row').first()).toBeVisible({ timeout: 45_000 });
  const listShown = Date.now() - t0;
  await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
  const rows = await page.getByTestId('session-row').evaluateAll((els) => els.map((e) => ({ path: e.getAttribute('data-path') ?? '', bytes: Number(e.getAttribute('data-bytes') ?? 0) })));
  const largest = rows.sort((a, b) => b.bytes - a.bytes)[0]!;
  expect(largest.bytes).toBeGreaterThan(2_500_000);
  const t1 = Date.now();
  await page.locator(`[data-testid=session-row][data-path="${largest.path}"]`).click();
  await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible({ timeout: 45_000 });
  const bigOpened = Date.now() - t1;
  const s = app.scenarios['01-superseded-reads']!;
  await row(page, s).click();
  await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible();
  const t2 = Date.now();
  const written = await app.invoke<{ path: string }>('fork:write', { path: s.path, classes: ['gone', 'stale-drift', 'stale-superseded', 'duplicate'] });
  const forkWritten = Date.now() - t2;
  expect(written.path).toMatch(/\.jsonl$/);
  const figures = { listShownMs: listShown, bigSessionBytes: largest.bytes, bigSessionOpenedMs: bigOpened, forkWrittenMs: forkWritten };
  console.log(JSON.stringify(figures));
  writeFileSync(join(ARTIFACTS, 'timings.json'), JSON.stringify(figures, null, 2));
});
