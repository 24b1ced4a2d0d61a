// The conversation's find counts hits (every occurrence), not the items holding one, and a long payload
// opens in place with "show more".
import { join } from 'node:path';
import type { ConversationView } from '@glassbox/contract';
import { ARTIFACTS, expect, openApp, row, test } from './fixtures';

test('find counts hits, not items; a long payload opens with show more', async ({ page, app }) => {
  await openApp(page, app);
  const s = app.scenarios['02-gone-drift-errors']!;
  await row(page, s).click();
  await page.getByTestId('tab-conversation').click();
  const conv = await app.invoke<ConversationView>('session:conversation', { path: s.path });
  const word = 'notes';
  const hits = conv.items.reduce((n, it) => n + Math.max(it.text.toLowerCase().split(word).length - 1, it.label.toLowerCase().includes(word) && !it.text.toLowerCase().includes(word) ? 1 : 0), 0);
  const items = conv.items.filter((it) => it.text.toLowerCase().includes(word) || it.label.toLowerCase().includes(word)).length;
  expect(hits).toBeGreaterThan(items);
  await page.getByTestId('conv-find').fill(word);
  await expect(page.getByTestId('conv-matches')).toHaveText(`1 of ${hits} hits in ${items} items`);
  await page.getByTestId('conv-find').fill('');
  const item = page.locator('[data-testid=conv-item]').filter({ has: page.getByTestId('conv-more') }).first();
  const more = item.getByTestId('conv-more');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  const text = item.locator('.conv-text');
  const before = (await text.boundingBox())?.height ?? 0;
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(more).toHaveText('show less');
  expect((await text.boundingBox())?.height ?? 0).toBeGreaterThan(before);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ARTIFACTS, 'conversation-show-more-1440-light.png') });
});
