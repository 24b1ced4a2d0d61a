// The list, the landing, an open session, the dead-only map and the empty state at 800, 1280 and
// 1920 px, light and dark, into the repository's e2e/artifacts/ (with every other view) for people to look at.
import { join } from 'node:path';
import { ARTIFACTS, expect, openApp, row, test } from './fixtures';

for (const width of [800, 1280, 1920] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`list shots at ${width} px, ${theme}`, async ({ page, app }) => {
      await page.setViewportSize({ width, height: 860 });
      await page.emulateMedia({ colorScheme: theme });
      await openApp(page, app);
      await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
      await page.screenshot({ path: join(ARTIFACTS, `list-landing-${width}-${theme}.png`) });
      await row(page, app.scenarios['02-gone-drift-errors']!).click();
      await expect(page.getByTestId('treemap').locator('[data-class="gone"]').first()).toBeVisible();
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(ARTIFACTS, `list-session-${width}-${theme}.png`) });
      await page.getByTestId('dead-only').check();
      await expect(page.getByTestId('treemap').locator('.tm-tile[data-class="live"]')).toHaveCount(0);
      await page.screenshot({ path: join(ARTIFACTS, `list-dead-only-${width}-${theme}.png`) });
      // Nothing runs off the right edge.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }
}
test.describe('empty', () => {
  test.use({ scenarios: [], samples: true });
  for (const [width, theme] of [[800, 'light'], [1280, 'dark'], [1920, 'light']] as const) {
    test(`empty shots at ${width}, ${theme}`, async ({ page, app }) => {
      await page.setViewportSize({ width, height: 860 });
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(app.url);
      await expect(page.getByTestId('empty-sessions')).toBeVisible({ timeout: 30_000 });
      await page.screenshot({ path: join(ARTIFACTS, `list-empty-${width}-${theme}.png`) });
    });
  }
});
