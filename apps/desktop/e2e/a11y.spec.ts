// axe-core on every main state of the window (the list, an open session, a selected dead segment, the
// dead-only map, the conversation, the cost tab, the cost reports, the shortcut sheet, the open fork
// wizard, the inspector as a drawer at 800 px, and the empty state with its samples), in the light and
// the dark theme: no critical and no serious violation. The counts per impact are written to
// e2e/artifacts/axe-<theme>.json (axe-empty-<theme>.json) for the record.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ARTIFACTS, expect, openApp, row, test } from './fixtures';

type Impact = 'critical' | 'serious' | 'moderate' | 'minor';
interface Found {
  state: string;
  counts: Record<Impact, number>;
  violations: { id: string; impact: string; nodes: number; help: string; targets: string[] }[];
}

async function scan(page: Page, state: string): Promise<Found> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const counts: Record<Impact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of r.violations) counts[(v.impact ?? 'minor') as Impact] += v.nodes.length;
  return {
    state,
    counts,
    violations: r.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', nodes: v.nodes.length, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })),
  };
}

function record(theme: string, found: Found[]): string[] {
  writeFileSync(join(ARTIFACTS, `axe-${theme}.json`), JSON.stringify(found, null, 2));
  return found.flatMap((f) => f.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${f.state}: ${v.impact} ${v.id} (${v.nodes}) ${v.targets.join(', ')}`));
}

test.describe('with no sessions but the bundled samples', () => {
  test.use({ scenarios: [], samples: true });
  for (const theme of ['light', 'dark'] as const) {
    test(`axe finds no critical or serious violation in the empty state, ${theme}`, async ({ page, app }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(app.url);
      await expect(page.getByTestId('empty-sessions')).toBeVisible({ timeout: 30_000 });
      expect(record(`empty-${theme}`, [await scan(page, 'empty state')])).toEqual([]);
    });
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no critical or serious violation in the ${theme} theme`, async ({ page, app }) => {
    // Ten scans of the whole page, each seconds long on a busy machine.
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: theme });
    await openApp(page, app);
    await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
    const found: Found[] = [];
    found.push(await scan(page, 'list'));

    await row(page, app.scenarios['02-gone-drift-errors']!).click();
    const treemap = page.getByTestId('treemap');
    await expect(treemap.locator('[data-class="gone"]').first()).toBeVisible();
    found.push(await scan(page, 'open session'));

    await treemap.locator('[data-class="gone"]').first().click();
    await expect(page.getByTestId('class-badge')).toHaveText('gone');
    found.push(await scan(page, 'dead segment selected'));

    await page.getByTestId('dead-only').check();
    await expect(treemap.locator('.tm-tile[data-class="live"]')).toHaveCount(0);
    found.push(await scan(page, 'dead only'));
    await page.getByTestId('dead-only').uncheck();

    await page.getByTestId('tab-conversation').click();
    await expect(page.getByTestId('conv-item').first()).toBeVisible();
    found.push(await scan(page, 'conversation'));
    await page.getByTestId('tab-cost').click();
    await expect(page.getByTestId('cost-total')).toBeVisible();
    found.push(await scan(page, 'cost'));
    await page.getByTestId('tab-treemap').click();

    await page.getByTestId('toggle-cost-reports').click();
    await expect(page.getByTestId('cost-reports')).toBeVisible();
    found.push(await scan(page, 'cost reports'));
    await page.getByTestId('toggle-cost-reports').click();

    await page.locator('body').press('?');
    await expect(page.getByRole('dialog')).toBeVisible();
    found.push(await scan(page, 'shortcut sheet'));
    await page.keyboard.press('Escape');

    await page.getByTestId('open-fork').click();
    await expect(page.getByTestId('fork-wizard')).toBeVisible();
    found.push(await scan(page, 'fork wizard'));
    await page.keyboard.press('Escape');

    // The narrow window: the inspector as a drawer over the centre.
    await page.setViewportSize({ width: 800, height: 700 });
    await expect(page.getByTestId('class-badge')).toBeVisible();
    found.push(await scan(page, 'drawer at 800 px'));

    expect(record(theme, found)).toEqual([]);
  });
}
