// The list re-orders under the person using it (the index refines rows as it reads them; a session
// that grows moves up): a row pressed must open, and the keyboard cursor stay on its session, whatever
// moved in between. The re-order here is a real one: a session file grows (its own records written
// again, as a client appends) until it is the largest, with the list sorted by size.
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, openApp, row, test, type Scenario } from './fixtures';

const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter((l) => l !== '');

/** Grows a session past `than` bytes with copies of its own biggest record (a valid transcript still). */
function growPast(s: Scenario, than: number): void {
  const biggest = lines(s.path).reduce((a, b) => (b.length > a.length ? b : a));
  const copies = Math.ceil((than - statSync(s.path).size) / (biggest.length + 1)) + 1;
  appendFileSync(s.path, `${biggest}\n`.repeat(Math.max(1, copies)));
}

const order = (page: Page) => page.getByTestId('session-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));

test.beforeEach(async ({ page, app }) => {
  await openApp(page, app);
  await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
  await page.getByLabel('Sort sessions').selectOption('size');
  await page.getByTestId('by-project').uncheck();
});

test('a row pressed opens, even when the list re-orders before the release', async ({ page, app }) => {
  const small = app.scenarios['05-autocompact']!;
  const big = app.scenarios['01-superseded-reads']!;
  await expect.poll(() => order(page)).toEqual([big.path, app.scenarios['02-gone-drift-errors']!.path, small.path]);
  const box = await row(page, small).boundingBox();
  if (!box) throw new Error('the row is not laid out');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  growPast(small, statSync(big.path).size + 10_000);
  // The pressed session moved to the top; another row is under the pointer now.
  await expect.poll(() => order(page).then((o) => o[0])).toBe(small.path);
  await page.mouse.up();
  await expect(page.locator('[data-testid=session-row].selected')).toHaveAttribute('data-path', small.path);
  await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible();
});

test('the keyboard cursor stays on its session when the list re-orders', async ({ page, app }) => {
  const small = app.scenarios['05-autocompact']!;
  const big = app.scenarios['01-superseded-reads']!;
  const tree = page.getByRole('tree');
  const active = async () => page.locator(`#${await tree.getAttribute('aria-activedescendant')}`).getAttribute('data-path');
  await page.getByTestId('search').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect.poll(active).toBe(small.path);
  growPast(small, statSync(big.path).size + 10_000);
  await expect.poll(() => order(page).then((o) => o[0])).toBe(small.path);
  // Still on the same session, now first: down goes to the one after it in the new order.
  await expect.poll(active).toBe(small.path);
  await page.keyboard.press('ArrowDown');
  await expect.poll(active).toBe(big.path);
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid=session-row].selected')).toHaveAttribute('data-path', big.path);
});
