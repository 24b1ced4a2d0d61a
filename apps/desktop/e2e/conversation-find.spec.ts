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
  // A tool call is read with its result: one item holding both texts.
  const rows = conv.items.map((it) => ({ text: [it.text, it.result?.text ?? ''].join('\n').toLowerCase(), label: [it.label, it.result?.label ?? ''].join('\n').toLowerCase() }));
  const hits = rows.reduce((n, it) => n + Math.max(it.text.split(word).length - 1, it.label.includes(word) && !it.text.includes(word) ? 1 : 0), 0);
  const items = rows.filter((it) => it.text.includes(word) || it.label.includes(word)).length;
  expect(hits).toBeGreaterThan(items);
  await page.getByTestId('conv-find').fill(word);
  await expect(page.getByTestId('conv-matches')).toHaveText(`1 of ${hits} hits in ${items} items`);
  await page.getByTestId('conv-find').fill('');
  // A folded item (a tool call, an attachment) shows "show more" once opened.
  const item = page.locator('[data-testid=conv-item]').filter({ has: page.getByTestId('conv-more') }).first();
  const fold = item.getByTestId('conv-fold');
  if ((await fold.count()) > 0) await fold.click();
  const controls = await item.locator('[data-testid=conv-more]:visible').first().getAttribute('aria-controls');
  const more = page.locator(`[data-testid=conv-more][aria-controls="${controls}"]`);
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  const text = page.locator(`[id="${controls}"]`);
  const before = (await text.boundingBox())?.height ?? 0;
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(more).toHaveText('show less');
  expect((await text.boundingBox())?.height ?? 0).toBeGreaterThan(before);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ARTIFACTS, 'conversation-show-more-1440-light.png') });
});
