// The cost reports panel (ccusage's daily, monthly and session reports, by project and model) at 800,
// 1280 and 1920 px, light and dark, into e2e/artifacts/: its figures agree with the host's, the table
// sorts, the total row adds up, and axe finds no critical or serious violation in it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { UsageReportView } from '@glassbox/contract';
import { ARTIFACTS, expect, openApp, test } from './fixtures';

const usd = (n: number) => `$${n.toFixed(2)}`;

for (const width of [800, 1280, 1920] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`cost reports at ${width} px, ${theme}`, async ({ page, app }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: theme });
      await openApp(page, app);
      await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
      const t0 = Date.now();
      await page.getByTestId('toggle-cost-reports').click();
      const panel = page.getByTestId('cost-reports');
      const daily = await app.invoke<UsageReportView>('usage:report', { by: 'day' });
      await expect(panel.getByTestId('usage-total')).toHaveText(usd(daily.total.cost));
      const shownMs = Date.now() - t0;
      await expect(panel.getByTestId('usage-chart').locator('li')).toHaveCount(daily.rows.length);
      await expect(panel.getByTestId('usage-note')).toContainText(`prices as of claude-code ${daily.priceTables.find((t) => t.agent === 'claude-code')?.asOf}`);
      await expect(panel).not.toContainText('--prices');
      // Days in time order, every one a row.
      const firstCells = panel.locator('[data-testid=usage-table] tbody tr td:first-child');
      await expect(firstCells).toHaveText(daily.rows.map((r) => r.key).sort());
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(ARTIFACTS, `cost-reports-day-${width}-${theme}.png`) });

      const axe: Record<string, number>[] = [];
      for (const by of ['month', 'project', 'session', 'model'] as const) {
        await panel.getByTestId(`usage-by-${by}`).click();
        await expect(panel.getByTestId(`usage-by-${by}`)).toHaveAttribute('aria-pressed', 'true');
        const r = await app.invoke<UsageReportView>('usage:report', { by });
        await expect(panel.locator('[data-testid=usage-table] tbody tr')).toHaveCount(r.rows.length);
        await expect(panel.getByTestId('usage-total')).toHaveText(usd(r.total.cost));
        // Never a dash for a title, never a $0.00 placeholder model.
        await expect(panel.locator('[data-testid=usage-table] tbody')).not.toContainText('<synthetic>');
        if (by === 'session') {
          // Sort by cost, cheapest first, then back.
          const costHead = panel.getByRole('columnheader', { name: 'cost' });
          await expect(costHead).toHaveAttribute('aria-sort', 'descending');
          await costHead.getByRole('button').click();
          await expect(costHead).toHaveAttribute('aria-sort', 'ascending');
          const cheapest = [...r.rows].sort((a, b) => a.cost - b.cost)[0];
          await expect(panel.locator('[data-testid=usage-table] tbody tr').first()).toContainText(usd(cheapest?.cost ?? 0));
          await page.mouse.move(0, 0);
          await page.screenshot({ path: join(ARTIFACTS, `cost-reports-session-${width}-${theme}.png`) });
        }
        if (width === 1280) {
          const found = await new AxeBuilder({ page }).include('[data-testid=cost-reports]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
          const counts: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
          for (const v of found.violations) counts[v.impact ?? 'minor'] = (counts[v.impact ?? 'minor'] ?? 0) + v.nodes.length;
          axe.push({ ...counts });
          expect(found.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${by}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        }
      }
      if (width === 1280) writeFileSync(join(ARTIFACTS, `axe-cost-reports-${theme}.json`), JSON.stringify({ axe, shownMs }, null, 2));
      await panel.getByRole('button', { name: 'Close the cost reports' }).click();
      await expect(panel).toHaveCount(0);
    });
  }
}
