// The window and the host never disagree: whatever the window did not hear before its event stream
// opened (indexing that ended in between, a change during a reconnect) reaches it when the stream opens.
import type { SessionsListResult } from '@glassbox/contract';
import { expect, test } from './fixtures';

// Indexing a session of some tens of MB takes seconds: the window's first list is answered while it runs.
test.use({ scenarios: ['01-superseded-reads', '02-gone-drift-errors'], bigSessionMb: 40 });

test('the status line reaches "indexed" when the event stream opens only after indexing ended', async ({ page, app }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  // The stream request is held until the host has finished indexing: none of its progress events reach the page.
  await page.route('**/api/events', async (route) => {
    await held;
    await route.continue();
  });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(app.url);
  // What the page was told first: indexing under way ("Reading 1/3", "Analysing 2/3").
  await expect(page.locator('.index-status')).toHaveText(/ \d+\/\d+$/);
  await expect.poll(async () => (await app.invoke<SessionsListResult>('sessions:list', {})).progress.phase, { timeout: 60_000 }).toBe('done');
  release();
  await expect(page.locator('.index-status')).toHaveText('3 sessions indexed · watching for changes');
  await expect(page.getByTestId('session-row')).toHaveCount(3);
});
