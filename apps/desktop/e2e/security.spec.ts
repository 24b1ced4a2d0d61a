// Browser mode's token in a real browser (Debian's Chromium): it never becomes a cookie, so another
// server on 127.0.0.1 (any port: cookies ignore ports) never receives it; it leaves the address bar
// at once; a reload keeps working; without it the page says what to do and the API refuses.
// The HTTP-level attacks (paths, oracles, Host/Origin, bodies) are in packages/host/src/attacks.test.ts.
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, openApp, row, test } from './fixtures';

/** A plain server on another local port that records what browsers send it. */
async function otherLocalServer(): Promise<{ port: number; seen: IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>someone else</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, seen, close: () => new Promise((r) => server.close(() => r())) };
}

test('the token never reaches another local port, and leaves the address bar at once', async ({ page, app }) => {
  const other = await otherLocalServer();
  try {
    await openApp(page, app);
    expect(page.url()).not.toContain('token=');
    expect(await page.evaluate(() => document.cookie)).not.toContain(app.token);
    await page.goto(`http://127.0.0.1:${other.port}/`);
    await expect(page).toHaveTitle('someone else');
    expect(other.seen.length).toBeGreaterThan(0);
    for (const h of other.seen) expect(h.cookie ?? '').not.toContain(app.token);
    expect(JSON.stringify(await page.context().cookies())).not.toContain(app.token);
  } finally {
    await other.close();
  }
});

test('live updates arrive through the token-carrying event stream, and survive a reload', async ({ page, app }) => {
  await openApp(page, app);
  await page.reload();
  await expect(page.getByTestId('session-row')).toHaveCount(Object.keys(app.scenarios).length);
  const s = app.scenarios['01-superseded-reads']!;
  const last = readFileSync(s.path, 'utf8').trimEnd().split('\n').pop() as string;
  appendFileSync(s.path, `${last}\n`);
  await expect(row(page, s)).toHaveAttribute('data-bytes', String(statSync(s.path).size));
});

test('without the token the page says what to do, and the API refuses', async ({ page, app }) => {
  const origin = new URL(app.url).origin;
  await page.goto(origin + '/');
  await expect(page.getByTestId('notice')).toContainText('This page is not authorised');
  await expect(page.getByTestId('session-row')).toHaveCount(0);
  const status = await page.evaluate(async () => (await fetch('/api/invoke/sessions:list', { method: 'POST', body: '{}' })).status);
  expect(status).toBe(403);
});

test.describe('text from a transcript', () => {
  test.use({ scenarios: ['../hostile/19-hostile-text'] });

  test('shows its escape sequences, bidi overrides and zero-width characters by name, as the CLI does', async ({ page, app }) => {
    const s = app.scenarios['../hostile/19-hostile-text']!;
    await openApp(page, app);
    // The title (the first prompt holds OSC sequences) in the list.
    await expect(row(page, s)).toContainText('\\e]0;owned\\a');
    await row(page, s).click();
    const treemap = page.getByTestId('treemap');
    await expect(treemap.locator('[data-class="gone"]').first()).toBeVisible();
    // Each proof names its file as it is: the zero-width space, the override and the OSC 52 sequence shown.
    const proofs: string[] = [];
    for (const tile of await treemap.locator('[data-class="gone"], [data-class="stale-drift"]').all()) {
      await tile.click();
      proofs.push(await page.getByTestId('proof').innerText());
    }
    expect(proofs.join('\n')).toContain('evil⟨U+202E⟩txt.sh');
    expect(proofs.join('\n')).toContain('\\e]52;c;cm0gLXJmIH4K\\anotes.md');
    await page.getByTestId('tab-conversation').click();
    await expect(page.getByTestId('conv-item').first()).toBeVisible();
    const text = await page.evaluate(() => document.body.innerText);
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect([...text.matchAll(/[\0-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\ufeff]/g)].map((m) => m[0].codePointAt(0))).toEqual([]);
    expect(text).toContain('config⟨U+200B⟩.json');
    expect(text).toContain('\\e]52;c;cm0gLXJmIH4K\\a');
  });
});
