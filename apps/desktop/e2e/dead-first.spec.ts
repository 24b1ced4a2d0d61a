// Dead first: "What to remove" beside the treemap (ranked, file name first, proof in one line, a row
// selects its tile), n / N through the dead segments, and a /context bar readable at every width. The
// views at 800, 1280 and 1920 px, light and dark, go to e2e/artifacts/ with axe's counts per impact.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { ARTIFACTS, expect, openApp, row, shot, test } from './fixtures';

test('What to remove ranks the dead segments; n / N select them; a row selects its tile', async ({ page, app }) => {
  await openApp(page, app);
  await row(page, app.scenarios['02-gone-drift-errors']!).click();
  const panel = page.getByTestId('remove-panel');
  await expect(panel).toContainText('What to remove');
  const rows = panel.getByTestId('remove-row');
  await expect(rows.first()).toBeVisible();
  const n = await rows.count();
  expect(n).toBeGreaterThan(2);
  const tokens = await rows.locator('.remove-tokens').allTextContents();
  const value = (t: string) => parseFloat(t) * (/\dk/.test(t) ? 1000 : 1);
  for (let i = 1; i < tokens.length; i++) expect(value(tokens[i - 1]!)).toBeGreaterThanOrEqual(value(tokens[i]!));
  await expect(panel).toContainText(/gone: .* no longer exists/);

  // n selects the largest, then the next; N goes back. The inspector shows each.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('n');
  await expect(rows.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('class-badge')).not.toHaveText('live');
  await page.keyboard.press('n');
  await expect(rows.nth(1)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('Shift+N');
  await expect(rows.nth(0)).toHaveAttribute('aria-current', 'true');
  // A row selects its tile in the map.
  await rows.nth(2).click();
  const id = await rows.nth(2).getAttribute('data-dead-row');
  await expect(page.locator(`[data-tile="${id}"]`)).toHaveClass(/selected/);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the window at 800, 1280 and 1920 px in the ${theme} theme: the context legend, its sum, the assumed model; axe`, async ({ page, app }) => {
    await page.emulateMedia({ colorScheme: theme });
    const counts: Record<string, Record<string, number>> = {};
    for (const width of [800, 1280, 1920]) {
      await page.setViewportSize({ width, height: width === 800 ? 900 : 1000 });
      await openApp(page, app);
      await shot(page, `ui-${width}-${theme}-list`);
      await row(page, app.scenarios['02-gone-drift-errors']!).click();
      await expect(page.getByTestId('treemap').locator('[data-class="gone"]').first()).toBeVisible();
      await expect(page.getByTestId('context-legend')).toBeVisible();
      await expect(page.getByTestId('context-sum')).toContainText('=');
      await expect(page.getByTestId('auto-compact')).toHaveText(/\.$/);
      await expect(page.getByTestId('model-basis')).toContainText('assumed');
      await expect(page.getByTestId('remove-panel')).toBeVisible();
      await shot(page, `ui-${width}-${theme}-session`);
      await page.keyboard.press('n');
      await expect(page.getByTestId('class-badge')).toBeVisible();
      await shot(page, `ui-${width}-${theme}-dead-selected`);
      const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      const c: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
      for (const v of r.violations) c[v.impact ?? 'minor'] = (c[v.impact ?? 'minor'] ?? 0) + v.nodes.length;
      counts[`${width}`] = c;
      const bad = r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${width}px: ${v.impact} ${v.id} ${v.nodes.map((x) => x.target.join(' ')).slice(0, 3).join(', ')}`);
      expect(bad).toEqual([]);
    }
    writeFileSync(join(ARTIFACTS, `axe-dead-first-${theme}.json`), JSON.stringify(counts, null, 2));
  });
}

test('at 800 px the inspector drawer closes by its button, by Esc and by a click beside it', async ({ page, app }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await openApp(page, app);
  await row(page, app.scenarios['02-gone-drift-errors']!).click();
  await expect(page.getByTestId('remove-panel')).toBeVisible();
  const drawer = page.getByRole('complementary', { name: 'Segment inspector' });
  for (const how of ['button', 'escape', 'outside'] as const) {
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('n');
    await expect(page.getByTestId('class-badge')).toBeVisible();
    await expect(drawer).toBeVisible();
    if (how === 'button') await page.getByTestId('inspector-close').click();
    else if (how === 'escape') await page.keyboard.press('Escape');
    else await page.getByTestId('inspector-backdrop').click({ position: { x: 20, y: 200 } });
    await expect(drawer).toBeHidden();
  }
});

test('? opens the shortcut sheet (a dialog, axe-clean), Esc closes it and gives the focus back', async ({ page, app }) => {
  await openApp(page, app);
  await row(page, app.scenarios['02-gone-drift-errors']!).click();
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('?');
  const sheet = page.getByTestId('shortcut-sheet');
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText('next / previous dead segment');
  await expect(sheet.getByRole('button', { name: 'Close' })).toBeFocused();
  const r = await new AxeBuilder({ page }).include('[data-testid=shortcut-sheet]').analyze();
  expect(r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => v.id)).toEqual([]);
  await shot(page, 'ui-shortcut-sheet');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  // The "window" crumb says why it is off.
  await expect(page.getByRole('button', { name: 'window', exact: true })).toHaveAttribute('title', /whole window is shown/);
});
