// The conversation is the whole session: every window from the first prompt, each compaction in
// place, tool calls folded with their results, attachments as what they carry; the session exports
// to HTML that needs nothing; a search across sessions finds a reply's words and shows them in context.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { ConversationView } from '@glassbox/contract';
import { ARTIFACTS, expect, openApp, row, shot, test } from './fixtures';

test.describe('a session compacted twice', () => {
  test.use({ scenarios: ['15-autocompact-twice', '02-gone-drift-errors'] });

  test('reads from the first prompt through both compactions; calls fold with their results; attachments are files', async ({ page, app }) => {
    await openApp(page, app);
    const s = app.scenarios['15-autocompact-twice']!;
    const conv = await app.invoke<ConversationView>('session:conversation', { path: s.path });
    await row(page, s).click();
    await page.getByTestId('tab-conversation').click();
    const status = page.getByTestId('conv-matches');
    const items = conv.items.reduce((n, i) => n + (i.result ? 2 : 1), 0);
    await expect(status).toHaveText(`${items} items, the whole session · 2 compactions shown in place`);
    // It starts where the session started, not at the last compaction.
    const first = page.getByTestId('conv-item').first();
    await expect(first).toHaveAttribute('data-kind', 'prompt');
    await expect(first).toHaveAttribute('data-window', '0');
    await expect(first).toContainText('Review the whole project');
    await expect(page.getByTestId('conv-compaction').first()).toContainText('compaction 1');
    // A tool call, folded, opens with its result.
    const call = page.locator('[data-testid=conv-item][data-kind=tool-input]').first();
    const fold = call.getByTestId('conv-fold');
    await expect(fold).toHaveAttribute('aria-expanded', 'false');
    await fold.click();
    await expect(fold).toHaveAttribute('aria-expanded', 'true');
    await expect(call.getByTestId('conv-result')).toContainText('tool result');
    // Before a compaction, an item is not in the treemap: it offers no "in treemap".
    await expect(call.getByTestId('show-in-treemap')).toHaveCount(0);
    // Find counts hits in results too, and the second compaction is reached by scrolling to it.
    await page.getByTestId('conv-find').fill('compaction');
    await expect(status).toContainText(/^1 of \d+ hits in \d+ items$/);
    await page.getByTestId('conv-find').fill('');
    const attached = conv.items.find((i) => i.attachment?.startsWith('file '));
    expect(attached?.text).not.toContain('Called the Read tool');
    // Virtualised: scrolled to, as a reader would.
    const shown = page.locator(`[data-testid=conv-item][data-segment="${attached?.segmentId}"]`);
    const list = page.locator('.conv-list');
    for (let i = 0; i < 40 && (await shown.count()) === 0; i++) await list.evaluate((el) => el.scrollBy(0, 300));
    await expect(shown).toContainText('attached by the client');
    await expect(shown).not.toContainText('Called the Read tool');
    await list.evaluate((el) => el.scrollTo(0, 0));

    for (const [width, theme] of [[1280, 'light'], [1280, 'dark'], [800, 'light'], [1920, 'dark']] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: theme });
      await shot(page, `conversation-whole-${width}-${theme}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const axe = await new AxeBuilder({ page }).include('[data-testid=conversation]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
    writeFileSync(join(ARTIFACTS, 'axe-conversation.json'), JSON.stringify(axe.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })), null, 2));
    expect(serious.map((v) => v.id)).toEqual([]);
  });

  test('exports the session as HTML that loads and runs nothing, and the list finds a reply with its words in context', async ({ page, app }) => {
    await openApp(page, app);
    const s = app.scenarios['15-autocompact-twice']!;
    await row(page, s).click();
    await page.getByTestId('tab-conversation').click();
    await expect(page.getByTestId('conv-item').first()).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByTestId('export-html').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${s.sessionId}.html`);
    const html = readFileSync((await file.path()) as string, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|<img|src=/i);
    expect(html.match(/<h2 class="compaction">/g)).toHaveLength(2);
    await expect(page.getByTestId('export-note')).toHaveText(`Saved ${s.sessionId}.html`);

    // Search across sessions: words only the model said, in a reply of the other session.
    await page.getByTestId('search').fill('Confirming gone');
    const other = app.scenarios['02-gone-drift-errors']!;
    await expect(page.getByTestId('session-row')).toHaveCount(1);
    const snippet = row(page, other).getByTestId('row-snippet');
    await expect(snippet).toContainText('Confirming it is gone');
    await expect(snippet.locator('mark')).toHaveText(['Confirming', 'gone']);
    await shot(page, 'search-snippet-1280-light');
  });
});

test.describe('a 3 MB session', () => {
  test.use({ bigSessionMb: 3 });

  test('reads its whole conversation, virtualised (the time is written for the record, never checked)', async ({ page, app }) => {
    await page.goto(app.url);
    await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
    const rows = await page.getByTestId('session-row').evaluateAll((els) => els.map((e) => ({ path: e.getAttribute('data-path') ?? '', bytes: Number(e.getAttribute('data-bytes') ?? 0) })));
    const largest = rows.sort((a, b) => b.bytes - a.bytes)[0]!;
    expect(largest.bytes).toBeGreaterThan(2_500_000);
    await page.locator(`[data-testid=session-row][data-path="${largest.path}"]`).click();
    await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible({ timeout: 45_000 });
    const t0 = Date.now();
    await page.getByTestId('tab-conversation').click();
    await expect(page.getByTestId('conv-item').first()).toBeVisible({ timeout: 45_000 });
    const shownMs = Date.now() - t0;
    const conv = await app.invoke<ConversationView>('session:conversation', { path: largest.path });
    const items = conv.items.reduce((n, i) => n + (i.result ? 2 : 1), 0);
    // Virtualised: the page holds a screenful of items, not thousands.
    const inPage = await page.getByTestId('conv-item').count();
    expect(inPage).toBeLessThan(Math.min(items, 80));
    const t1 = Date.now();
    await page.getByTestId('conv-find').fill('README');
    await expect(page.getByTestId('conv-matches')).toContainText(/hits? in|no match/);
    const findMs = Date.now() - t1;
    const figures = { bytes: largest.bytes, items, compactions: conv.compactions.length, itemsInPage: inPage, conversationShownMs: shownMs, findMs };
    console.log(JSON.stringify(figures));
    writeFileSync(join(ARTIFACTS, 'conversation-timings.json'), JSON.stringify(figures, null, 2));
  });
});
