import type { CompactionsView } from '@glassbox/contract';
import { expect, openApp, row, shot, test } from './fixtures';

test.use({ scenarios: ['18-compaction-kept-dropped', '17-subagent-compact'] });

test('a compaction marker on the chart opens what the compaction forgot: before/after, the dropped list, the exact text, find', async ({ page, app }) => {
  await openApp(page, app);
  const s = app.scenarios['18-compaction-kept-dropped']!;
  const view = await app.invoke<CompactionsView>('session:compactions', { path: s.path });
  const first = view.histories[0]?.compactions[0];
  expect(first?.xray.trigger).toBe('manual');
  await row(page, s).click();
  await expect(page.getByTestId('turns-chart')).toBeVisible();
  // The chart's first compaction marker, by keyboard.
  const marker = page.getByRole('button', { name: /compacted before response \d+: what it forgot/ }).first();
  await marker.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('compaction-xray');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { level: 2 })).toContainText('Compaction #1 · manual · line 30');
  await expect(dialog.getByTestId('cx-before').locator('rect')).toHaveCount((first?.xray.kept.length ?? 0) + (first?.xray.dropped.length ?? 0));
  await expect(dialog.getByTestId('cx-after').locator('rect')).toHaveCount(first?.after.length ?? 0);
  await expect(dialog.getByTestId('cx-figures')).toContainText('dead anyway');
  // The failed sync is in the dropped list; its exact text reads back from the transcript.
  const dropped = dialog.getByTestId('cx-dropped');
  const error = dropped.getByRole('button', { name: /python3 -c .*an error/ }).last();
  await error.click();
  await expect(dialog.getByTestId('cx-item-text')).toContainText('sync failed: ECONNRESET while posting batch 7');
  await shot(page, '18-compaction-xray');
  // Jump to it in the conversation before the compaction.
  await dialog.getByRole('button', { name: 'Show in the conversation before' }).click();
  await expect(dialog.getByRole('tab', { name: 'The conversation before' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByTestId('cx-window').locator('.cx-item.selected')).toContainText('line 14');
  // Where did ECONNRESET go?
  await dialog.getByRole('tab', { name: 'Find' }).click();
  await dialog.getByTestId('cx-find-input').fill('ECONNRESET');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('cx-find-result')).toContainText('Summary #1 does not have it');
  await expect(dialog.getByTestId('cx-find-result').getByRole('button')).toHaveCount(3);
  await shot(page, '18-compaction-find');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("a subagent's own compaction is listed under the chart and opens the same way", async ({ page, app }) => {
  await openApp(page, app);
  await row(page, app.scenarios['17-subagent-compact']!).click();
  const entry = page.getByTestId('compaction-entry');
  await entry.getByRole('button', { name: /subagent a001b8 #1 auto/ }).click();
  await expect(page.getByTestId('compaction-xray').getByRole('heading', { level: 2 })).toContainText('Subagent a001b80d91f19a22d: compaction #1 · auto · line 9');
});
