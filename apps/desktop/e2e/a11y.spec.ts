// axe-core on every main state of the window (the list, an open session, a selected dead segment, the
// open fork wizard), in the light and the dark theme: no critical and no serious violation. The counts
// per impact are written to e2e/artifacts/axe-<theme>.json for the record.
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

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no critical or serious violation in the ${theme} theme`, async ({ page, app }) => {
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

    await page.getByTestId('open-fork').click();
    await expect(page.getByTestId('fork-wizard')).toBeVisible();
    found.push(await scan(page, 'fork wizard'));

    writeFileSync(join(ARTIFACTS, `axe-${theme}.json`), JSON.stringify(found, null, 2));
    const bad = found.flatMap((f) => f.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${f.state}: ${v.impact} ${v.id} (${v.nodes}) ${v.targets.join(', ')}`));
    expect(bad).toEqual([]);
  });
}
