// The compaction views say one thing: the chart's count is the x-ray's and the CLI's, every chip has a
// real share kept, the dropped list's columns are labelled, one "before" figure with the others on hover,
// and axe finds no critical or serious violation (label-content-name-mismatch on the markers included).
// Screenshots at 800, 1280 and 1920 px, light and dark, into e2e/artifacts/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { CompactionsView } from '@glassbox/contract';
import { ARTIFACTS, expect, openApp, row, test } from './fixtures';

test.use({ scenarios: ['18-compaction-kept-dropped', '17-subagent-compact', '05-autocompact'] });

for (const width of [800, 1280, 1920] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`compaction views at ${width} px, ${theme}`, async ({ page, app }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: theme });
      await openApp(page, app);
      const s = app.scenarios['18-compaction-kept-dropped']!;
      const t0 = Date.now();
      await row(page, s).click();
      const entry = page.getByTestId('compaction-entry');
      await expect(entry).toBeVisible({ timeout: 20_000 });
      const openedMs = Date.now() - t0;
      const view = await app.invoke<CompactionsView>('session:compactions', { path: s.path });
      const main = view.histories.find((h) => h.agentId === null)!;
      const count = main.unreached.length === 0 ? `${main.boundaries} compaction${main.boundaries === 1 ? '' : 's'}, all on the live conversation` : `${main.boundaries} compactions: ${main.compactions.length} on the live conversation, ${main.unreached.length} not reached by it`;
      await expect(entry).toContainText(count);
      await expect(page.locator('.chart-readout')).toContainText(count);
      await expect(entry.getByRole('button')).toHaveCount(view.histories.reduce((n, h) => n + h.compactions.length, 0));
      await expect(entry).not.toContainText('kept 0%');
      await expect(entry.getByTestId('compaction-unreached')).toHaveCount(main.unreached.length);
      // Marker labels never overlap one another.
      const labels = await page.locator('.chart g.compaction text').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
      for (let i = 1; i < labels.length; i++) expect(labels[i]?.[0] ?? 0).toBeGreaterThanOrEqual(labels[i - 1]?.[1] ?? 0);
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(ARTIFACTS, `compactions-chart-${width}-${theme}.png`) });

      const axe: { state: string; serious: string[] }[] = [];
      const scan = async (state: string) => {
        const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        axe.push({ state, serious: r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id} (${v.nodes.length})`) });
      };
      if (width === 1280) await scan('session with compactions');

      await page.getByRole('button', { name: /compacted before response \d+: what it forgot/ }).first().focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByTestId('compaction-xray');
      await expect(dialog).toBeVisible();
      await expect(dialog.getByTestId('cx-before-size')).toHaveAttribute('title', /reported|record|estimated/);
      await expect(dialog.getByTestId('cx-items-head')).toContainText('what the summary holds of it');
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(ARTIFACTS, `compactions-xray-${width}-${theme}.png`) });
      if (width === 1280) {
        await scan('x-ray open');
        writeFileSync(join(ARTIFACTS, `axe-compactions-${theme}.json`), JSON.stringify({ axe, openedMs }, null, 2));
        expect(axe.flatMap((a) => a.serious.map((x) => `${a.state}: ${x}`))).toEqual([]);
      }
    });
  }
}
