// The fork wizard's own Cancel (the jobs bar is behind the modal): a fork cancelled while it is written
// leaves nothing beside its source and can be written again. And at 800 px the window's header stays
// compact, so the treemap keeps most of the height.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildLargeTranscript } from '../../../scripts/bench/synthetic';
import { GENERATED, expect, openApp, row, test } from './fixtures';

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

test.describe('cancel in the wizard', () => {
  test.use({ scenarios: ['01-superseded-reads'] });

  test('Cancel while the fork is written: nothing is written, the wizard says so and writes it again', async ({ page, app }) => {
    test.setTimeout(180_000);
    const small = app.scenarios['01-superseded-reads'];
    if (!small) throw new Error('no seeded session');
    // A big session of the scenario's real records repeated (ids renamed per copy): its window is the
    // last copy's, with superseded reads to remove, and its fork streams 40 MB, long enough to cancel.
    const folder = dirname(small.path);
    const big = join(folder, `${randomUUID()}.jsonl`);
    await buildLargeTranscript([join(GENERATED, '01-superseded-reads', 'transcript.jsonl')], big, 40 * 1024 * 1024);
    const before = readdirSync(folder).sort();
    const bytes = sha(big);

    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(app.url);
    await page.locator(`[data-testid=session-row][data-path="${big}"]`).click({ timeout: 60_000 });
    await expect(page.getByTestId('treemap')).toBeVisible({ timeout: 90_000 });
    await page.getByTestId('open-fork').click();
    const wizard = page.getByTestId('fork-wizard');
    await wizard.getByTestId('fork-next').click();
    await wizard.getByTestId('fork-next').click();
    await expect(wizard.getByTestId('fork-preview')).toBeVisible({ timeout: 90_000 });
    await wizard.getByTestId('fork-next').click();
    await expect(wizard.getByTestId('fork-write')).toBeEnabled();

    await wizard.getByTestId('fork-write').click();
    // Inside the modal, while it writes: its progress and Cancel.
    await expect(wizard.getByTestId('fork-write-progress')).toBeVisible();
    await wizard.getByTestId('fork-cancel').click();
    await expect(wizard.getByTestId('fork-cancelled')).toBeVisible({ timeout: 60_000 });
    await expect(wizard.getByTestId('fork-cancelled')).toContainText('not written');
    await expect(wizard.getByTestId('fork-error')).toHaveCount(0);
    await expect(wizard.getByTestId('fork-cancel')).toHaveCount(0);
    // Nothing written: no fork, no side folder, no temporary file beside the source; the source unchanged.
    expect(readdirSync(folder).sort()).toEqual(before);
    expect(sha(big)).toBe(bytes);
    await expect(page.getByTestId('session-row')).toHaveCount(2);

    // Try again: the same wizard writes it.
    await expect(wizard.getByTestId('fork-write')).toBeEnabled();
    await wizard.getByTestId('fork-write').click();
    await expect(wizard.getByTestId('fork-written')).toBeVisible({ timeout: 120_000 });
    const forkId = (await wizard.getByTestId('fork-id').textContent())?.trim() ?? '';
    expect(readdirSync(folder)).toContain(`${forkId}.jsonl`);
    expect(sha(big)).toBe(bytes);
  });
});

test.describe('the header at 800 px', () => {
  test.use({ scenarios: ['01-superseded-reads', '02-gone-drift-errors', '05-autocompact'] });

  for (const height of [600, 800]) {
    test(`at 800×${height} the header takes under 30% of the height, every figure of it in view or one click away`, async ({ page, app }) => {
      await page.setViewportSize({ width: 800, height });
      await openApp(page, app);
      for (const s of Object.values(app.scenarios)) {
        await row(page, s).click();
        const bar = page.getByTestId('context-bar');
        await expect(bar).toBeVisible();
        const head = await page.locator('header.window-head').boundingBox();
        if (!head) throw new Error('no header');
        console.log(`header at 800×${height}, ${s.name}: ${Math.round(head.height)} px`);
        expect(head.height).toBeLessThan(0.3 * height);
        // Each part's size and share, the free space and the auto-compaction point stay in view.
        await expect(page.getByTestId('context-legend')).toBeVisible();
        await expect(page.getByTestId('context-legend')).toContainText(/\(\d+%|<1%\)/);
        await expect(page.getByTestId('context-legend')).toContainText('free');
        await expect(page.getByTestId('auto-compact')).toBeVisible();
        // The assumed model named in view; why, how the parts add up, the working directory and retention one click away.
        const more = page.getByTestId('head-details');
        await expect(more.locator('summary')).toContainText(/next request: .+, assumed/);
        await more.locator('summary').click();
        await expect(page.getByTestId('model-basis')).toContainText('assumed');
        await expect(page.getByTestId('context-sum')).toBeVisible();
        await expect(page.getByTestId('cwd-line')).toBeVisible();
        await more.locator('summary').click();
        await expect(page.getByTestId('cwd-line')).toBeHidden();
      }
    });
  }
});
