// The list, the landing and the empty state at 800, 1280 and 1920 px, light and dark, into
// apps/desktop/e2e/artifacts/ for people to look at.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { expect, openApp, row, test } from './fixtures';

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(HERE, { recursive: true });

for (const width of [800, 1280, 1920] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`list shots at ${width} px, ${theme}`, async ({ page, app }) => {
      await page.setViewportSize({ width, height: 860 });
      await page.emulateMedia({ colorScheme: theme });
      await openApp(page, app);
      await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
      await page.screenshot({ path: join(HERE, `list-landing-${width}-${theme}.png`) });
      await row(page, app.scenarios['02-gone-drift-errors']!).click();
      await expect(page.getByTestId('treemap').locator('[data-class="gone"]').first()).toBeVisible();
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(HERE, `list-session-${width}-${theme}.png`) });
    });
  }
}
test.describe('empty', () => {
  test.use({ scenarios: [], samples: true });
  for (const width of [800, 1920] as const) {
    test(`empty shots at ${width}`, async ({ page, app }) => {
      await page.setViewportSize({ width, height: 860 });
      await page.goto(app.url);
      await expect(page.getByTestId('empty-sessions')).toBeVisible({ timeout: 30_000 });
      await page.screenshot({ path: join(HERE, `list-empty-${width}-light.png`) });
    });
  }
});
