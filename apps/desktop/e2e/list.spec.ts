// The session list as a person shapes it, and the map's dead-only view: a width dragged and kept across
// restarts, one banner (and one action) when many sessions are deleted soon, the dead segments alone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openApp, row, test } from './fixtures';

test('the list is as wide as it was dragged, after a reload too', async ({ page, app }) => {
  await openApp(page, app);
  const nav = page.getByRole('navigation', { name: 'Sessions' });
  const before = (await nav.boundingBox())?.width ?? 0;
  const handle = page.getByTestId('sidebar-resize');
  const h = await handle.boundingBox();
  if (!h) throw new Error('no resize handle');
  await page.mouse.move(h.x + h.width / 2, h.y + 200);
  await page.mouse.down();
  await page.mouse.move(h.x + h.width / 2 + 60, h.y + 200, { steps: 4 });
  await page.mouse.move(h.x + h.width / 2 + 120, h.y + 200, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await nav.boundingBox())?.width ?? 0)).toBeGreaterThan(before + 100);
  const dragged = Math.round((await nav.boundingBox())?.width ?? 0);
  // The keyboard moves the edge too.
  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => Math.round((await nav.boundingBox())?.width ?? 0)).toBe(dragged - 16);
  await page.reload();
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  await expect.poll(async () => Math.round((await nav.boundingBox())?.width ?? 0)).toBe(dragged - 16);
});

test('many sessions deleted soon: one banner with one action, and no date repeated on every row', async ({ page, app }) => {
  writeFileSync(join(app.configDir, 'settings.json'), '{"cleanupPeriodDays": 5}');
  await openApp(page, app);
  const banner = page.getByTestId('expiring-banner');
  await expect(banner).toContainText('3 sessions are deleted by Claude Code within a week');
  await banner.getByTestId('keep-expiring').click();
  await expect(banner).toContainText('3 kept in Glassbox’s archive');
  // Kept as they are: each row says so (what sets it apart), and the banner's count is gone.
  for (const s of Object.values(app.scenarios)) await expect(row(page, s).getByTestId('retention-mark')).toHaveAttribute('data-tone', 'kept');
  await expect(banner).not.toContainText('within a week');
});

test('with the usual clean-up period, rows carry no retention line', async ({ page, app }) => {
  await openApp(page, app);
  await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
  // Claude Code's default (30 days): the date is in each row's tooltip, not a line on each of them.
  await expect(page.getByTestId('session-list').getByTestId('retention-mark')).toHaveCount(0);
  await expect(row(page, app.scenarios['02-gone-drift-errors']!)).toHaveAttribute('title', /deleted by Claude Code in \d+ days/);
});

test('dead only: the map is laid out again over the dead segments alone', async ({ page, app }) => {
  await openApp(page, app);
  await row(page, app.scenarios['02-gone-drift-errors']!).click();
  const treemap = page.getByTestId('treemap');
  await expect(treemap.locator('[data-class="gone"]').first()).toBeVisible();
  await page.getByTestId('dead-only').check();
  await expect(treemap.locator('.tm-tile[data-class="live"]')).toHaveCount(0);
  await expect(treemap.locator('[data-class="gone"]').first()).toBeVisible();
  // The dead blocks now fill the map (before, they were slivers at its edge).
  const box = await treemap.boundingBox();
  const tiles = await treemap.locator('.tm-tile').evaluateAll((els) => els.reduce((a, e) => a + e.getBoundingClientRect().width * e.getBoundingClientRect().height, 0));
  expect(tiles).toBeGreaterThan((box?.width ?? 0) * (box?.height ?? 0) * 0.5);
  await page.getByTestId('dead-only').uncheck();
  await expect(treemap.locator('.tm-tile[data-class="live"]').first()).toBeVisible();
});
