// Long work in the window: a big session opens in the engine's work threads with its progress shown,
// Cancel stops it, and the app answers meanwhile.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildLargeTranscript } from '../../../scripts/bench/synthetic';
import { GENERATED, expect, row, test } from './fixtures';

test.use({ scenarios: ['01-superseded-reads'] });

test('a big session opens with its progress, Cancel stops it, and the app goes on answering', async ({ page, app }) => {
  const small = app.scenarios['01-superseded-reads'];
  if (!small) throw new Error('no seeded session');
  // A big session of the corpus's real records (ids renamed per copy), beside the seeded one.
  const sources = readdirSync(GENERATED)
    .filter((n) => /^\d\d-/.test(n))
    .sort()
    .map((n) => join(GENERATED, n, 'transcript.jsonl'));
  const big = join(dirname(small.path), `${randomUUID()}.jsonl`);
  await buildLargeTranscript(sources, big, 100 * 1024 * 1024);

  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(app.url);
  const bigRow = page.locator(`[data-testid=session-row][data-path="${big}"]`);
  await expect(bigRow).toHaveCount(1, { timeout: 30_000 });
  await bigRow.click();
  const job = page.locator('[data-testid=job][data-kind=open]');
  await expect(job).toBeVisible();
  await expect(job.getByRole('progressbar')).toBeVisible();
  await expect(job).toContainText(/reading the session: [\d.]+ MB of \d+ MB/);
  // At the foot of the session list, in the layout: it covers nothing of the window.
  const nav = await page.getByRole('navigation', { name: 'Sessions' }).boundingBox();
  const at = await job.boundingBox();
  if (!nav || !at) throw new Error('not laid out');
  expect(at.x).toBeGreaterThanOrEqual(nav.x);
  expect(at.x + at.width).toBeLessThanOrEqual(nav.x + nav.width + 1);
  // The engine answers while it reads: the host's info comes back at once.
  const info = await app.invoke<{ mode: string }>('host:info', {});
  expect(info.mode).toBe('browser');
  await job.getByTestId('job-cancel').click();
  await expect(page.locator('[data-testid=job][data-kind=open][data-state=cancelled]')).toBeVisible();
  // The work threads carry on: the small session opens.
  await row(page, small).click();
  await expect(page.getByTestId('treemap')).toBeVisible();
});
