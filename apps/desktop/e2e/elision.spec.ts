// Elision in the window: its own step in the fork wizard (off by default, lossy but recoverable, with
// thresholds and three real elisions), the fork's elisions in their own colour, and the inspector's
// head, marker, tail and "Show the middle" from the archive, hash-checked.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openApp, row, shot, test } from './fixtures';

test.use({ scenarios: ['03-large-outputs'] });

/** axe-core's critical and serious violations on the page as it is (the a11y spec's rule set). */
async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the wizard elides as previewed, and the fork shows each elision with its middle back from the archive', async ({ page, app }) => {
  await openApp(page, app);
  const s = app.scenarios['03-large-outputs']!;
  const original = readFileSync(s.path, 'utf8');
  await row(page, s).click();
  await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible();
  await page.getByTestId('open-fork').click();
  const wizard = page.getByTestId('fork-wizard');
  // Not among the classes: a step of its own, off by default.
  await expect(wizard.getByTestId('pick-elided')).toHaveCount(0);
  await page.getByTestId('fork-next').click();
  const step = page.getByTestId('elision-step');
  await expect(step).toContainText('Lossy, but recoverable');
  await expect(page.getByTestId('elide-on')).not.toBeChecked();
  await expect(page.getByTestId('elide-over')).toBeDisabled();
  await expect(page.getByTestId('elide-over')).toHaveValue('4000');
  await page.getByTestId('elide-on').check();
  await page.getByTestId('elide-over').fill('500');
  await page.getByTestId('elide-keep-chars').fill('600');
  await page.getByTestId('elide-keep-lines').fill('10');
  const samples = page.getByTestId('elision-sample');
  await expect(samples).toHaveCount(3);
  await expect(page.getByTestId('elision-summary')).toContainText('over 500 tokens');
  const previewed: { head: string; marker: string; tail: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const sample = samples.nth(i);
    const head = (await sample.getByTestId('elision-head').textContent()) ?? '';
    const marker = (await sample.getByTestId('elision-marker').textContent()) ?? '';
    const tail = (await sample.getByTestId('elision-tail').textContent()) ?? '';
    expect(marker).toMatch(/^\[… [\d,]+ lines \(.+ chars\) elided by glassbox — recall [0-9a-f]{12} …\]$/);
    expect(head.length).toBeLessThanOrEqual(600);
    // Real: both ends are in the session's own text.
    expect(original).toContain(JSON.stringify(head.trimEnd()).slice(1, -1));
    expect(original).toContain(JSON.stringify(tail.trimEnd()).slice(1, -1));
    previewed.push({ head, marker, tail });
  }
  await shot(page, 'elision-step');
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByTestId('fork-next').click();
  await expect(page.getByTestId('fork-preview')).toContainText('elided (lossy, recoverable)');
  await page.getByTestId('fork-next').click();
  await expect(page.getByTestId('fork-checks').locator('li[data-check="elisions"]')).toHaveAttribute('data-ok', 'true');
  await page.getByTestId('fork-write').click();
  await expect(page.getByTestId('fork-written')).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('lineage')).toContainText('fork of');

  // The fork: its elisions drawn as elided (the registry's colour), in the legend too, beside the proven classes' tombstones.
  const treemap = page.getByTestId('treemap');
  const elided = treemap.locator('[data-class="elided"]');
  await expect(elided.first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Legend' })).toContainText('elided (lossy, recoverable)');
  expect(await elided.count()).toBeGreaterThanOrEqual(3);
  await expect(treemap.locator('[data-class="tombstone"]').first()).toBeVisible();
  await elided.first().click();
  await expect(page.getByTestId('class-badge')).toHaveText('elided (lossy, recoverable)');
  const section = page.getByTestId('elided-section');
  await expect(section).toBeVisible();
  const marker = (await section.getByTestId('elision-marker').textContent()) ?? '';
  expect(previewed.map((p) => p.marker)).toContain(marker);
  const prefix = /recall ([0-9a-f]{12}) …\]$/.exec(marker)?.[1] ?? '';
  await shot(page, 'elision-inspector');
  await section.getByTestId('show-middle').click();
  await expect(page.getByTestId('middle-check')).toHaveAttribute('data-ok', 'true');
  const middle = (await page.getByTestId('middle-text').textContent()) ?? '';
  expect(createHash('sha256').update(middle, 'utf8').digest('hex').startsWith(prefix)).toBe(true);
  // head + middle + tail is the result the original holds.
  const head = (await section.getByTestId('elision-head').textContent()) ?? '';
  const tail = (await section.getByTestId('elision-tail').textContent()) ?? '';
  expect(original).toContain(JSON.stringify(head + middle + tail).slice(1, -1));
  await shot(page, 'elision-middle');
  expect(await seriousViolations(page)).toEqual([]);
});
